import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { InputField } from '../../ui/fields';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { usePortal } from '../../core/PortalContext';
import {
  formatIban,
  ibanForeignCharacters,
  ibanMaskProblem,
  ibanMaxLength,
  normalizeIban,
} from '../../domain/iban';
import {
  BANK_ACCOUNT_LIMITS,
  sepaErrors,
  sepaRequest,
  type SepaField,
} from '../../domain/paymentMethodChange';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { paymentDetailsApi } from './paymentDetailsApi';
import { knownFields, useBankErrorTexts } from './useBankErrorTexts';

const SEPA_FIELDS: readonly SepaField[] = ['debitAccountHolder', 'iban', 'bic'];

/**
 * The SEPA mandate form (account-flows.md §3 SEPA account, §5 "SEPA: holder and IBAN required;
 * IBAN mask: 2 letters, 2 digits, then groups of four"): the IBAN shows in groups of four while it
 * is typed and is checked (country, length, mod-97) before anything is sent; the server checks it
 * again and names the same problems.
 */
export function SepaForm({
  subscriptionId,
  holder: initialHolder,
  onSaved,
  onCancel,
}: {
  subscriptionId: string;
  holder?: string;
  onSaved: (details: PaymentDetails) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const messages = useBankErrorTexts();
  const { ref, refused } = useFocusFirstError();
  const [holder, setHolder] = useState(initialHolder ?? '');
  const [iban, setIban] = useState('');
  const [bic, setBic] = useState('');
  const [errors, setErrors] = useState<Partial<Record<SepaField, string>>>({});
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);

  function ibanMaskText(): string | undefined {
    const problem = ibanMaskProblem(iban);
    if (problem === 'characters')
      return t('payment-method-change.error.iban.characters', {
        characters: ibanForeignCharacters(iban).join(' '),
      });
    if (problem === 'format') return t('payment-method-change.error.iban.format');
    if (problem === 'too_long')
      return t('shell.tooLong', { max: ibanMaxLength(iban), count: normalizeIban(iban).length });
    return undefined;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = sepaErrors({ debitAccountHolder: holder, iban, bic });
    setErrors(messages(found));
    if (ibanMaskProblem(iban)) {
      refused();
      return;
    }
    if (found.length > 0) {
      refused();
      return;
    }
    setSending(true);
    try {
      onSaved(
        await paymentDetailsApi(api).sepa(
          subscriptionId,
          sepaRequest({ debitAccountHolder: holder, iban, bic }),
        ),
      );
    } catch (error) {
      const refusedFields = knownFields(apiFieldCodes(error) ?? {}, SEPA_FIELDS);
      if (refusedFields.length > 0) {
        setErrors(messages(refusedFields));
        refused();
      } else setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={ref} className="bank-form" onSubmit={submit} noValidate aria-labelledby="sepa-title">
      <h3 id="sepa-title">{t('payment-method-change.sepa.heading')}</h3>
      <InputField
        label={t('payment-method-change.field.debitAccountHolder')}
        required
        autoComplete="name"
        maxChars={BANK_ACCOUNT_LIMITS.holder}
        value={holder}
        onChange={(event) => setHolder(event.target.value)}
        error={errors.debitAccountHolder}
      />
      <InputField
        label={t('payment-method-change.field.iban')}
        required
        className="iban-field"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        hint={t('payment-method-change.sepa.ibanHint')}
        value={formatIban(iban)}
        onChange={(event) => setIban(event.target.value)}
        // §5's mask, said while typing: nothing typed is dropped or cut.
        error={ibanMaskText() ?? errors.iban}
      />
      <InputField
        label={t('payment-method-change.field.bic')}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxChars={14}
        hint={t('payment-method-change.optional')}
        value={bic}
        onChange={(event) => setBic(event.target.value)}
        error={errors.bic}
      />
      <p className="field-note muted">{t('payment-method-change.sepa.mandate')}</p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('payment-method-change.save')}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('payment-method-change.cancel')}
        </button>
      </div>
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </form>
  );
}
