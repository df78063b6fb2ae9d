/**
 * Payment method change rules shared by the payment-details screen and the server
 * (account-flows.md §3 "Payment details", §4 "Payment method change", §5 "SEPA", "Direct debit";
 * portal-core.md §9 "Payment method kinds").
 */
import { ibanProblem, isValidBic, normalizeIban, type IbanProblem } from './iban';
import { isBlankText, isOneLineText, isPrintableOnLabel, textLength } from './fieldRules';

export type PaymentMethodKind = 'none' | 'paypal' | 'sepa' | 'credit_card' | 'direct_debit' | 'invoice';

/** How the order system writes a payment method on a subscription (portal-core.md §9 "Payment method mapping"). */
export interface PaymentMethodFields {
  /** E direct debit (SEPA too), K credit card, empty otherwise. */
  paymentMethod: 'E' | 'K' | '';
  /** 660 PayPal, 000 invoice, 001 (any other) credit card; none for direct debit and no method. */
  subOProcessedPMD: { subPaymentMethod: '660' | '000' | '001' | null };
  /** No method reads as invoice. */
  paymentDetails: { paymentMethod: PaymentMethodKind };
}

/**
 * portal-core.md §9 "Payment method mapping": E direct debit; K credit card; sub payment method
 * 660 PayPal, 000 invoice, other credit card; none invoice. The fields a subscription carries for
 * a kind: the seed writes them, and so does a payment method change on its day.
 */
export function paymentMethodFields(kind: PaymentMethodKind): PaymentMethodFields {
  switch (kind) {
    case 'direct_debit':
    case 'sepa':
      return {
        paymentMethod: 'E',
        subOProcessedPMD: { subPaymentMethod: null },
        paymentDetails: { paymentMethod: kind },
      };
    case 'credit_card':
      return {
        paymentMethod: 'K',
        subOProcessedPMD: { subPaymentMethod: '001' },
        paymentDetails: { paymentMethod: kind },
      };
    case 'paypal':
      return {
        paymentMethod: '',
        subOProcessedPMD: { subPaymentMethod: '660' },
        paymentDetails: { paymentMethod: kind },
      };
    case 'invoice':
      return {
        paymentMethod: '',
        subOProcessedPMD: { subPaymentMethod: '000' },
        paymentDetails: { paymentMethod: kind },
      };
    case 'none':
      return {
        paymentMethod: '',
        subOProcessedPMD: { subPaymentMethod: null },
        paymentDetails: { paymentMethod: 'invoice' },
      };
  }
}

/**
 * The same mapping read the other way: the kind of a subscription whose order system sends only its
 * codes (an import's `paymentMethod` and `subOProcessedPMD`), in the spec's order: E direct debit
 * (a SEPA mandate has the same code); K credit card; else the sub payment method, 660 PayPal, 000
 * invoice, any other a credit card; none at all an invoice.
 */
export function paymentKindOfCodes(
  paymentMethod: string | null | undefined,
  subPaymentMethod: string | null | undefined,
): PaymentMethodKind {
  if (paymentMethod === 'E') return 'direct_debit';
  if (paymentMethod === 'K') return 'credit_card';
  if (subPaymentMethod === '660') return 'paypal';
  if (subPaymentMethod === '000') return 'invoice';
  return subPaymentMethod != null && subPaymentMethod !== '' ? 'credit_card' : 'invoice';
}

/** The methods a subscriber can switch to online: each has its own call (§7); invoice and none need customer service. */
export const CHANGEABLE_PAYMENT_METHODS = ['sepa', 'direct_debit', 'credit_card', 'paypal'] as const;
export type ChangeablePaymentMethod = (typeof CHANGEABLE_PAYMENT_METHODS)[number];

export const isChangeablePaymentMethod = (kind: string): kind is ChangeablePaymentMethod =>
  (CHANGEABLE_PAYMENT_METHODS as readonly string[]).includes(kind);

/**
 * §4 "Only directions in the tenant's allowed list; an active method can be updated only if the
 * tenant allows from equal to to": the tenant's list for the current method, in its order, without
 * the methods that have no online call.
 */
export function allowedPaymentChanges(
  config: { allowedChanges?: Partial<Record<PaymentMethodKind, readonly PaymentMethodKind[]>> } | undefined,
  current: PaymentMethodKind,
): ChangeablePaymentMethod[] {
  const listed = config?.allowedChanges?.[current] ?? [];
  return [...new Set(listed)].filter(isChangeablePaymentMethod);
}

/** §4 "Card and PayPal go through a popup". */
export const paysInPopup = (kind: PaymentMethodKind): kind is 'credit_card' | 'paypal' =>
  kind === 'credit_card' || kind === 'paypal';

/** Limits of the account forms (schemas/api/sepa-request and direct-debit-request). */
export const BANK_ACCOUNT_LIMITS = { holder: 70, bankName: 60, accountNumber: 10, bankCode: 8 } as const;

export type SepaField = 'debitAccountHolder' | 'iban' | 'bic';
export type SepaError = {
  field: SepaField;
  code: 'required' | 'too_long' | 'invalid' | 'one_line' | 'not_printable' | IbanProblem;
};

const blank = isBlankText;

/**
 * The account holder: required, at most 70 characters, one line (fieldRules.ts isOneLineText) and
 * no emoji (isPrintableOnLabel): the name goes to the order system and onto the mandate as it was
 * typed, and a bank takes only a name it can print.
 */
function accountHolderError(
  holder: string | null | undefined,
): 'required' | 'too_long' | 'one_line' | 'not_printable' | undefined {
  if (blank(holder)) return 'required';
  if (!isOneLineText(holder)) return 'one_line';
  if (!isPrintableOnLabel(holder)) return 'not_printable';
  if (textLength(holder!.trim()) > BANK_ACCOUNT_LIMITS.holder) return 'too_long';
  return undefined;
}

/** §5 "SEPA: holder and IBAN required"; the IBAN by its country's length and checksum, a BIC when given. */
export function sepaErrors(input: {
  debitAccountHolder?: string | null;
  iban?: string | null;
  bic?: string | null;
}): SepaError[] {
  const errors: SepaError[] = [];
  const holderError = accountHolderError(input.debitAccountHolder);
  if (holderError) errors.push({ field: 'debitAccountHolder', code: holderError });
  const iban = ibanProblem(input.iban ?? '');
  if (iban) errors.push({ field: 'iban', code: iban });
  if (!blank(input.bic) && !isValidBic(input.bic!)) errors.push({ field: 'bic', code: 'invalid' });
  return errors;
}

/** The SEPA body as the server takes it: IBAN and BIC without spaces, upper case; no BIC is null. */
export function sepaRequest(input: { debitAccountHolder: string; iban: string; bic?: string | null }) {
  const bic = (input.bic ?? '').replace(/\s+/g, '').toUpperCase();
  return {
    debitAccountHolder: input.debitAccountHolder.trim(),
    iban: normalizeIban(input.iban),
    bic: bic || null,
  };
}

export type DirectDebitField =
  'debitAccountHolder' | 'debitAccountNumber' | 'debitBankCode' | 'debitBankName';
export type DirectDebitError = {
  field: DirectDebitField;
  code: 'required' | 'too_long' | 'invalid' | 'one_line' | 'not_printable';
};

/**
 * §5 "Direct debit: holder, account number, bank code required": up to 10 digits, and a German
 * bank code of 8 digits or a British sort code of 6 (12-34-56): a British publisher's subscribers
 * pay by direct debit from a sort code and account number.
 */
export function directDebitErrors(input: {
  debitAccountHolder?: string | null;
  debitAccountNumber?: string | null;
  debitBankCode?: string | null;
  debitBankName?: string | null;
}): DirectDebitError[] {
  const errors: DirectDebitError[] = [];
  const holderError = accountHolderError(input.debitAccountHolder);
  if (holderError) errors.push({ field: 'debitAccountHolder', code: holderError });
  const account = (input.debitAccountNumber ?? '').replace(/\s+/g, '');
  if (!account) errors.push({ field: 'debitAccountNumber', code: 'required' });
  else if (!/^\d{1,10}$/.test(account)) errors.push({ field: 'debitAccountNumber', code: 'invalid' });
  const bankCode = bankCodeDigits(input.debitBankCode ?? '');
  if (!bankCode) errors.push({ field: 'debitBankCode', code: 'required' });
  else if (!/^(\d{8}|\d{6})$/.test(bankCode)) errors.push({ field: 'debitBankCode', code: 'invalid' });
  if (!isOneLineText(input.debitBankName)) errors.push({ field: 'debitBankName', code: 'one_line' });
  else if (textLength((input.debitBankName ?? '').trim()) > BANK_ACCOUNT_LIMITS.bankName)
    errors.push({ field: 'debitBankName', code: 'too_long' });
  return errors;
}

/** A bank code or sort code as digits: without the spaces and dashes it is written with. */
const bankCodeDigits = (value: string) => value.replace(/[\s-]+/g, '');

/** The direct debit body: digits without spaces, no bank name is null. */
export function directDebitRequest(input: {
  debitAccountHolder: string;
  debitAccountNumber: string;
  debitBankCode: string;
  debitBankName?: string | null;
}) {
  return {
    debitAccountHolder: input.debitAccountHolder.trim(),
    debitAccountNumber: input.debitAccountNumber.replace(/\s+/g, ''),
    debitBankCode: bankCodeDigits(input.debitBankCode),
    debitBankName: (input.debitBankName ?? '').trim() || null,
  };
}

/** A card's expiry YYYYMM as MM/YYYY. */
export function formatCardExpiry(value: string | null | undefined): string {
  return value && /^\d{6}$/.test(value) ? `${value.slice(4)}/${value.slice(0, 4)}` : (value ?? '');
}
