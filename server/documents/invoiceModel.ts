/**
 * One invoice as both of its forms state it (issue 26): the PDF a person reads and the EN 16931
 * XML a machine reads (eInvoice.ts) are made from this one model, so the hybrid ZUGFeRD / Factur-X
 * file never says two different things (number, dates, lines, VAT per rate, totals, terms).
 */
import type { BusinessPartnerSummary, Subscription } from '../../schemas/generated/subscription';
import type { PaymentHistoryItem } from '../../schemas/generated/subscription-page';
import { formatDate } from '../../engine/domain/dates';
import { documentWords, type DocumentLocale } from './documentTexts';
import type { DocumentTenant } from './documentTenant';
import {
  addDays,
  invoiceTotals,
  servicePeriod,
  vatRateFor,
  type InvoiceTotals,
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
  /** Gross amount of the line. */
  amount: number;
  /** The line's own VAT rate where it differs from the publication's (invoiceFigures.ts GrossLine). */
  vatRatePercent?: number;
}

export type InvoiceSubscription = Pick<
  Subscription,
  'displayName' | 'publication' | 'publicationName' | 'orderNumber' | 'billingFrequency' | 'validToOnSaleDate'
>;

export interface InvoiceInput {
  tenant: DocumentTenant;
  locale: DocumentLocale;
  subscription: InvoiceSubscription;
  payment: PaymentHistoryItem;
  billedTo: BilledParty | undefined;
  /** The lines; by default one line, the subscription over the payment's billing cycle. */
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
  totals: InvoiceTotals;
  /** Paid in full (status A): the e-invoice states it as prepaid and nothing is due. */
  paid: boolean;
  /** When an unpaid invoice is due (BT-9); null once paid. */
  dueDate: string | null;
  /** The payment terms in the invoice's language, printed and stated as BT-20. */
  paymentTerms: string[];
}

/** portal-core.md has no payment terms; 14 days is the usual German term for subscriptions. */
export const DEFAULT_PAYMENT_TERMS_DAYS = 14;

export function invoiceModel(input: InvoiceInput): InvoiceModel {
  const { tenant, locale, subscription, payment } = input;
  const words = documentWords(locale);
  const period = servicePeriod(payment.date, subscription.billingFrequency, subscription.validToOnSaleDate);
  const lines = input.lines ?? [{ description: subscription.displayName, period, amount: payment.amount }];
  const totals = invoiceTotals(lines, vatRateFor(tenant.invoice, subscription.publication));
  // Only A is "paid" (subscription-page.schema.json): a partly paid invoice does not say how much
  // is left, so it is stated as due in full, like an open one.
  const paid = payment.invoiceStatusCode === 'A';
  const dueDate = paid
    ? null
    : addDays(payment.date, tenant.invoice?.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS);
  const iban = tenant.invoice?.bankAccount?.iban;
  const paymentTerms = paid
    ? [words.paidOn(formatDate(payment.date, locale))]
    : [words.payableBy(formatDate(dueDate!, locale)), ...(iban ? [words.payableTo(iban)] : [])];
  return {
    number: payment.invoiceNumber ?? payment.id,
    date: payment.date,
    currency: payment.currency,
    period,
    lines,
    totals,
    paid,
    dueDate,
    paymentTerms,
  };
}
