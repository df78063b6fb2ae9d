import { BANK_ACCOUNT_LIMITS, type DirectDebitField, type SepaField } from '../../domain/paymentMethodChange';

export type BankField = SepaField | DirectDebitField;

/**
 * The text key (and its values) of a bank form error, from the rules of
 * engine/domain/paymentMethodChange.ts or the server's `details.fields` codes (fields.iban =
 * format|country|length|checksum).
 */
export function bankErrorKey(
  field: BankField,
  code: string,
): { key: string; values?: Record<string, number> } {
  if (code === 'required') return { key: 'payment-method-change.error.required' };
  if (code === 'one_line') return { key: 'shell.oneLine' };
  if (code === 'not_printable') return { key: 'payment-method-change.error.notPrintable' };
  if (code === 'too_long')
    return {
      key: 'payment-method-change.error.tooLong',
      values: { max: field === 'debitBankName' ? BANK_ACCOUNT_LIMITS.bankName : BANK_ACCOUNT_LIMITS.holder },
    };
  if (field === 'iban' && ['format', 'country', 'length', 'checksum'].includes(code))
    return { key: `payment-method-change.error.iban.${code}` };
  if (field === 'bic') return { key: 'payment-method-change.error.bic' };
  if (field === 'debitAccountNumber') return { key: 'payment-method-change.error.accountNumber' };
  if (field === 'debitBankCode') return { key: 'payment-method-change.error.bankCode' };
  return { key: 'payment-method-change.error.invalid' };
}
