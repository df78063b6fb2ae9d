/**
 * One invoice as both of its forms state it (docs/invoices.md): the PDF a person reads and the EN 16931
 * XML a machine reads (eInvoice.ts) are made from this one model, so the hybrid ZUGFeRD / Factur-X
 * file never says two different things (number, dates, lines, VAT per rate, totals, terms).
 */
import type { BusinessPartnerSummary, Subscription } from '../../schemas/generated/subscription';
import type { PaymentHistoryItem } from '../../schemas/generated/subscription-page';
import { formatDate } from '../../engine/domain/dates';
import { documentWords, formatMoney, type DocumentLocale } from './documentTexts';
import type { OrderSystemPayment } from '../../schemas/generated/order-system-payment';
import { localizedDetails } from '../../engine/domain/language';
import type { DocumentTenant } from './documentTenant';
import {
  addDays,
  invoiceTotals,
  servicePeriod,
  vatRateFor,
  type InvoiceTotals,
  type VatCategory,
  type ServicePeriod,
} from './invoiceFigures';

/**
 * The party an invoice is addressed to: name, postal address and, for the e-invoice, its e-mail.
 * The address has either form the portal keeps (account-flows.md §3 business partner, §5 address
 * change): street and house number, or the free address lines of a tenant with the `address-lines`
 * feature (kept in the partner's `details`).
 */
export type BilledParty = Pick<
  BusinessPartnerSummary,
  | 'bpNumber'
  | 'firstName'
  | 'lastName1'
  | 'company1'
  | 'street'
  | 'streetNumber'
  | 'zipcode'
  | 'city'
  | 'countryCode'
> & {
  emailAddress?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressLine3?: string | null;
  streetNumberSuffix?: string | null;
};

export interface InvoiceLine {
  description: string;
  period: ServicePeriod;
  /** Gross amount of the line (quantity × gross unit price, rounded to the cent). */
  amount: number;
  /** The line's own VAT rate where it differs from the publication's (invoiceFigures.ts GrossLine). */
  vatRatePercent?: number;
  vatCategory?: VatCategory;
  vatExemptionReason?: string;
  /** How many units (EN 16931 BT-129); 1 when not given. */
  quantity?: number;
}

/** A line of an invoice as the order system books it (schemas/api/order-system-payment.schema.json). */
export type RecordLine = NonNullable<OrderSystemPayment['lines']>[number];

/** The payment-history entry of the invoice, with what the invoice alone needs of the order system's record. */
export type InvoicePayment = PaymentHistoryItem & {
  /** What has been paid of the invoice (BT-113); null or missing: A paid in full, else nothing. */
  paidAmount?: number | null;
  /** The order system's lines; null or missing: one line of the whole amount. */
  lines?: RecordLine[] | null;
};

export type InvoiceSubscription = Pick<
  Subscription,
  'displayName' | 'publication' | 'publicationName' | 'orderNumber' | 'billingFrequency' | 'validToOnSaleDate'
>;

export interface InvoiceInput {
  tenant: DocumentTenant;
  locale: DocumentLocale;
  subscription: InvoiceSubscription;
  payment: InvoicePayment;
  billedTo: BilledParty | undefined;
  /** The lines; by default the order system's (payment.lines), else one line, the subscription over the payment's billing cycle. */
  lines?: InvoiceLine[];
  compress?: boolean;
}

export interface InvoiceModel {
  number: string;
  /** The invoice date (BT-2): the payment-history entry's date. */
  date: string;
  currency: string;
  period: ServicePeriod;
  lines: InvoiceLine[];
  /** As booked: a credit note's totals are negative. */
  totals: InvoiceTotals;
  /**
   * A negative invoice of the order system: a credit note (EN 16931 type code 381), which states
   * its amounts positive: the type code says which way the money goes, not the sign.
   */
  creditNote: boolean;
  /** The amounts as the document states them: what was paid (BT-113) and what is due (BT-115). */
  stated: { gross: number; prepaid: number; due: number };
  /** Nothing is left to pay (or to refund). */
  paid: boolean;
  /** When an unpaid amount is due (BT-9); null once paid, for an overpayment and for a credit note. */
  dueDate: string | null;
  /** The payment terms in the invoice's language, printed and stated as BT-20. */
  paymentTerms: string[];
}

/** portal-core.md has no payment terms; 14 days is the usual German term for subscriptions. */
export const DEFAULT_PAYMENT_TERMS_DAYS = 14;

const cents = (value: number) => Math.round(value * 100);

/** The order system's lines in the invoice's language (the same rule as its product names, server/store/localizedDetails.ts). */
function recordLines(
  lines: readonly RecordLine[],
  locale: DocumentLocale,
  period: ServicePeriod,
): InvoiceLine[] {
  return lines.map((line) => {
    const quantity = line.quantity ?? 1;
    return {
      description: localizedDetails(
        { description: line.description, translations: line.translations },
        locale,
      ).description,
      period,
      amount: cents(quantity * Number(line.unitPrice)) / 100,
      vatRatePercent: line.vatRatePercent,
      vatCategory: line.vatCategory,
      ...(line.vatExemptionReason ? { vatExemptionReason: line.vatExemptionReason } : {}),
      quantity,
    };
  });
}

/**
 * What was paid and what is due (EN 16931 BT-113, BT-115; BR-CO-16: due = total − paid). The
 * order system's paid amount where it sends one; else status A (paid) counts as paid in full and
 * any other status as nothing paid. A credit note's "paid" is what was refunded.
 */
function statedAmounts(payment: InvoicePayment, gross: number, creditNote: boolean) {
  const sign = creditNote ? -1 : 1;
  const paidAsBooked = payment.paidAmount ?? (payment.invoiceStatusCode === 'A' ? gross : 0);
  const stated = cents(gross) * sign;
  const prepaid = cents(Number(paidAsBooked)) * sign;
  return { gross: stated / 100, prepaid: prepaid / 100, due: (stated - prepaid) / 100 };
}

export function invoiceModel(input: InvoiceInput): InvoiceModel {
  const { tenant, locale, subscription, payment } = input;
  const words = documentWords(locale);
  const money = (value: number) => formatMoney(value, payment.currency, locale);
  const period = servicePeriod(payment.date, subscription.billingFrequency, subscription.validToOnSaleDate);
  const lines =
    input.lines ??
    (payment.lines?.length
      ? recordLines(payment.lines, locale, period)
      : [{ description: subscription.displayName, period, amount: payment.amount }]);
  const totals = invoiceTotals(lines, vatRateFor(tenant.invoice, subscription.publication));
  const creditNote = totals.gross < 0;
  const stated = statedAmounts(payment, totals.gross, creditNote);
  const paid = stated.due === 0;
  const open = stated.due > 0 && !creditNote;
  const dueDate = open
    ? addDays(payment.date, tenant.invoice?.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS)
    : null;
  const iban = tenant.invoice?.bankAccount?.iban;
  const transfer = iban ? [words.payableTo(iban)] : [];
  let paymentTerms: string[];
  if (creditNote)
    paymentTerms =
      stated.due > 0
        ? [words.refund(money(stated.due))]
        : [words.refundedOn(formatDate(payment.date, locale))];
  else if (paid) paymentTerms = [words.paidOn(formatDate(payment.date, locale))];
  else if (stated.due < 0) paymentTerms = [words.overpaidTerms(money(-stated.due))];
  else if (stated.prepaid > 0)
    paymentTerms = [
      words.partlyPaid(money(stated.prepaid), money(stated.due), formatDate(dueDate!, locale)),
      ...transfer,
    ];
  else
    paymentTerms = [
      words.payableBy(formatDate(dueDate!, locale)),
      // Partly paid without the order system saying how much: the whole amount is stated as due
      // (BR-CO-16 leaves no room for "unknown"), and the part payments are credited.
      ...(payment.invoiceStatusCode === 'T' ? [words.partPaymentsCredited] : []),
      ...transfer,
    ];
  return {
    number: payment.invoiceNumber ?? payment.id,
    date: payment.date,
    currency: payment.currency,
    period,
    lines,
    totals,
    creditNote,
    stated,
    paid,
    dueDate,
    paymentTerms,
  };
}
