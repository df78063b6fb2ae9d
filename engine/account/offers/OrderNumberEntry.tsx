import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation } from 'react-router';
import { usePortal } from '../../core/PortalContext';
import { ORDER_NUMBER_MAX_LENGTH } from '../../domain/fieldRules';
import {
  orderNumberLoginErrors,
  type OrderNumberLoginError,
  type OrderNumberLoginInput,
} from '../../domain/offers';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { entryMessage, entryResultOf, type EntryResult } from './entryOutcomes';
import { offersApi } from './offersApi';
import { EntryFormActions } from './EntryFormActions';

/**
 * The anonymous entry of the renewal and upgrade pages (account-flows.md §2 "Anonymous entry",
 * §4, §5): order number and last name, prefilled from the query (orderNumber, lastName1, email)
 * and sent once by itself when all three are there. The order number and name earn a sign-in link
 * to the address on record (they prove no identity); opening it signs in and opens the
 * subscription's renewal or upgrade page with returnTo. The spec's e-mail field "only when the
 * server demands it" stays hidden: the server never asks for a typed address now; a prefilled one
 * is passed along.
 */
export function OrderNumberEntry({ flow }: { flow: 'renewal' | 'upgrade' }) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const [values, setValues] = useState<OrderNumberLoginInput>({
    // Digits only (§5's mask), never cut: a longer number stays whole and the field says so.
    orderNumber: (query.get('orderNumber') ?? '').replace(/\D/g, ''),
    lastName: query.get('lastName1') ?? '',
  });
  const email = query.get('email') ?? undefined;
  // The problems as codes, worded at each render: a language switch words them anew.
  const [problems, setProblems] = useState<OrderNumberLoginError[]>([]);
  const errors: Partial<Record<keyof OrderNumberLoginInput, string>> = {};
  for (const problem of problems)
    errors[problem.field] =
      problem.code === 'invalid' ? t('account.entry.invalidOrderNumber') : t('account.entry.required');
  const [result, setResult] = useState<EntryResult | null>(null);
  const [busy, setBusy] = useState(false);
  const autoSent = useRef(false);
  const locked = result?.outcome === 'entry:link_sent';

  async function send(input: OrderNumberLoginInput) {
    const found = orderNumberLoginErrors(input);
    setProblems(found);
    // The last answer goes with the details it was for: none stands beside a new field error.
    setResult(null);
    if (found.length > 0) return;
    setBusy(true);
    try {
      await offersApi(api).orderNumberLogin({
        orderNumber: input.orderNumber.trim(),
        lastName: input.lastName.trim(),
        ...(email ? { email } : {}),
        flow,
      });
      // Every answer that is no refusal names where the link went; a plain success is not expected.
      setResult({ outcome: 'entry:failed' });
    } catch (error) {
      setResult(entryResultOf(error));
    } finally {
      setBusy(false);
    }
  }

  // §2: "It auto-submits when all three are present in the query" — once.
  useEffect(() => {
    if (autoSent.current) return;
    autoSent.current = true;
    if (query.get('orderNumber') && query.get('lastName1') && query.get('email')) void send(values);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on the values the address brought
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(values);
  };

  return (
    <form className="entry-form" onSubmit={submit} noValidate aria-describedby={`${flow}-entry-intro`}>
      <p id={`${flow}-entry-intro`}>{t('account.entry.orderNumberIntro')}</p>
      <InputField
        label={t('account.entry.orderNumber')}
        required
        inputMode="numeric"
        autoComplete="off"
        maxChars={ORDER_NUMBER_MAX_LENGTH}
        tooLongKey="shell.orderNumberTooLong"
        readOnly={locked}
        value={values.orderNumber}
        onChange={(e) => setValues((v) => ({ ...v, orderNumber: e.target.value.replace(/\D/g, '') }))}
        error={errors.orderNumber}
      />
      <InputField
        label={t('account.entry.lastName')}
        required
        autoComplete="family-name"
        readOnly={locked}
        value={values.lastName}
        onChange={(e) => setValues((v) => ({ ...v, lastName: e.target.value }))}
        error={errors.lastName}
      />
      {result && (
        <Alert variant={locked ? 'success' : 'error'}>
          <p>{entryMessage(t, result, { orderNumber: values.orderNumber })}</p>
        </Alert>
      )}
      <EntryFormActions
        locked={locked}
        busy={busy}
        submitLabel={t('account.entry.submit')}
        onUnlock={() => setResult(null)}
      />
    </form>
  );
}
