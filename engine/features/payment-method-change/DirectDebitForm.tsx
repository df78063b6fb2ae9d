import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { apiFieldCodes } from '../../account/changes/apiFieldErrors';
import { InputField } from '../../ui/fields';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { usePortal } from '../../core/PortalContext';
import {
  BANK_ACCOUNT_LIMITS,
  directDebitErrors,
  directDebitRequest,
  type DirectDebitField,
} from '../../domain/paymentMethodChange';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { paymentDetailsApi } from './paymentDetailsApi';
import { knownFields, useBankErrorTexts } from './useBankErrorTexts';

const FIELDS: readonly DirectDebitField[] = [
  'debitAccountHolder',
  'debitAccountNumber',
  'debitBankCode',
  'debitBankName',
];

/** The direct debit form (account-flows.md §3 direct debit, §5 "holder, account number, bank code required"; the bank code has 8 digits). */
export function DirectDebitForm({
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
  const [values, setValues] = useState<Record<DirectDebitField, string>>({
    debitAccountHolder: initialHolder ?? '',
    debitAccountNumber: '',
    debitBankCode: '',
    debitBankName: '',
  });
  const [errors, setErrors] = useState<Partial<Record<DirectDebitField, string>>>({});
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  const field = (name: DirectDebitField) => ({
    label: t(`payment-method-change.field.${name}`),
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = directDebitErrors(values);
    setErrors(messages(found));
    if (found.length > 0) {
      refused();
      return;
    }
    setSending(true);
    try {
      onSaved(await paymentDetailsApi(api).directDebit(subscriptionId, directDebitRequest(values)));
    } catch (error) {
      const refusedFields = knownFields(apiFieldCodes(error) ?? {}, FIELDS);
      if (refusedFields.length > 0) {
        setErrors(messages(refusedFields));
        refused();
      } else setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={ref} className="bank-form" onSubmit={submit} noValidate aria-labelledby="direct-debit-title">
      <h3 id="direct-debit-title">{t('payment-method-change.directDebit.heading')}</h3>
      <InputField
        {...field('debitAccountHolder')}
        required
        autoComplete="name"
        maxChars={BANK_ACCOUNT_LIMITS.holder}
      />
      <div className="field-row">
        <InputField
          {...field('debitAccountNumber')}
          required
          inputMode="numeric"
          autoComplete="off"
          maxChars={BANK_ACCOUNT_LIMITS.accountNumber}
        />
        <InputField
          {...field('debitBankCode')}
          required
          inputMode="numeric"
          autoComplete="off"
          maxChars={BANK_ACCOUNT_LIMITS.bankCode}
          hint={t('payment-method-change.directDebit.bankCodeHint')}
        />
      </div>
      <InputField
        {...field('debitBankName')}
        autoComplete="off"
        maxChars={BANK_ACCOUNT_LIMITS.bankName}
        hint={t('payment-method-change.optional')}
      />
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
