import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import { useLocation } from 'react-router';
import { entryMessage, entryResultOf, type EntryResult } from '../../account/offers/entryOutcomes';
import { offersApi } from '../../account/offers/offersApi';
import { EntryFormActions } from '../../account/offers/EntryFormActions';
import { SubscriptionPicker } from '../../account/offers/SubscriptionPicker';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { ROUTES } from '../../domain/routeRefs';
import { cancellationCheckErrors, type CancellationCheckInput } from '../../domain/cancellation';
import { canCancel } from '../../domain/capabilities';
import { ORDER_NUMBER_MAX_LENGTH, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import { Alert } from '../../ui/Alert';
import { InputField } from '../../ui/fields';
import { portalLocale } from '../../domain/language';

/**
 * /cancellation (account-flows.md §2 "Cancellation screen", §4, §5): signed-in users choose one of
 * their subscriptions that can be cancelled and go on to its cancellation page; anonymous visitors
 * check e-mail, order number and zip code.
 */
export default function CancellationEntryScreen() {
  const { t } = useTranslation();
  const loggedIn = isLoggedIn(useAtomValue(authStateAtom));
  return (
    <section className="flow-entry" aria-labelledby="cancellation-entry-title">
      <h1 id="cancellation-entry-title">{t('cancellation.entryHeading')}</h1>
      {loggedIn ? (
        <>
          <p>{t('cancellation.pickerIntro')}</p>
          <SubscriptionPicker
            id="cancellation"
            allowed={canCancel}
            target={ROUTES.subscriptionCancellation}
            returnTo="cancellation"
            emptyKey="cancellation.pickerEmpty"
          />
        </>
      ) : (
        <CancellationCheck />
      )}
    </section>
  );
}

/**
 * The anonymous check (§4 "Anonymous path: form, then check ... blocks if externally managed or no
 * reasons"). The three fields are no proof of identity, so the check never signs in: the
 * server mails a sign-in link to the address on record and answers confirm_email with it masked.
 * The fields then lock; reason and date follow on the cancellation page the link opens.
 */
function CancellationCheck() {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const query = new URLSearchParams(useLocation().search);
  const [values, setValues] = useState<CancellationCheckInput>({
    email: query.get('email') ?? '',
    // Digits only (§5's mask), never cut: a longer number stays whole and the field says so.
    orderNumber: (query.get('orderNumber') ?? '').replace(/\D/g, ''),
    zipcode: query.get('zipCode') ?? '',
  });
  // The problems as codes, worded at each render: a language switch words them anew.
  const [problems, setProblems] = useState<ReturnType<typeof cancellationCheckErrors>>([]);
  const [result, setResult] = useState<EntryResult | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = result?.outcome === 'entry:link_sent';
  const errors: Partial<Record<keyof CancellationCheckInput, string>> = {};
  for (const error of problems) {
    errors[error.field] =
      error.code === 'required'
        ? t('account.entry.required')
        : error.code === 'too_long'
          ? t('account.entry.tooLong', { max: ZIP_CODE_MAX_LENGTH })
          : error.field === 'email'
            ? t('account.entry.invalidEmail')
            : t('account.entry.invalidOrderNumber');
  }

  async function check(event: FormEvent) {
    event.preventDefault();
    const found = cancellationCheckErrors(values);
    setProblems(found);
    // The last answer goes with the details it was for: none stands beside a new field error.
    setResult(null);
    if (found.length > 0) return;
    setBusy(true);
    try {
      const locale = portalLocale(i18n.language);
      await offersApi(api).cancellationLogin({
        email: values.email.trim(),
        orderNumber: values.orderNumber.trim(),
        zipcode: values.zipcode.trim(),
        locale,
      });
      // Every answer that is no refusal names where the link went; a plain success is not expected.
      setResult({ outcome: 'entry:failed' });
    } catch (error) {
      setResult(entryResultOf(error));
    } finally {
      setBusy(false);
    }
  }

  const set = (field: keyof CancellationCheckInput) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));
  return (
    <form className="entry-form" onSubmit={check} noValidate>
      <p>{t('cancellation.checkIntro')}</p>
      <InputField
        label={t('account.entry.email')}
        type="email"
        required
        autoComplete="email"
        readOnly={locked}
        value={values.email}
        onChange={(e) => set('email')(e.target.value)}
        error={errors.email}
      />
      <InputField
        label={t('account.entry.orderNumber')}
        required
        inputMode="numeric"
        autoComplete="off"
        maxChars={ORDER_NUMBER_MAX_LENGTH}
        tooLongKey="shell.orderNumberTooLong"
        readOnly={locked}
        value={values.orderNumber}
        onChange={(e) => set('orderNumber')(e.target.value.replace(/\D/g, ''))}
        error={errors.orderNumber}
      />
      <InputField
        label={t('account.entry.zipcode')}
        required
        autoComplete="postal-code"
        maxChars={ZIP_CODE_MAX_LENGTH}
        readOnly={locked}
        value={values.zipcode}
        onChange={(e) => set('zipcode')(e.target.value)}
        error={errors.zipcode}
      />
      {result && (
        <Alert variant={locked ? 'success' : 'error'}>
          <p>
            {entryMessage(
              t,
              result,
              { orderNumber: values.orderNumber },
              { 'entry:link_sent': 'cancellation.checkLinkSent' },
            )}
          </p>
        </Alert>
      )}
      <EntryFormActions
        locked={locked}
        busy={busy}
        submitLabel={t('cancellation.check')}
        onUnlock={() => setResult(null)}
      />
    </form>
  );
}
