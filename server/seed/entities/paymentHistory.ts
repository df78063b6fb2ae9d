/**
 * Payment history of a subscription, newest first, one entry per billing cycle. The rows are made by
 * subscriptions.ts as each subscription is made (their invoice and payment numbers come from the
 * shared ranges in that order); this module owns the table.
 */
import type { InvoiceStatusCode } from '../../store/rows';
import type { SeedContext, SeedModule } from '../context';
import { addMonths, fromDay } from '../dates';

export interface PaymentSeedRow {
  subscription_id: string;
  id: string;
  date: string;
  amount: string;
  currency: string;
  invoice_status_code: InvoiceStatusCode;
  invoice_number: string;
  external_document_number: string;
  document_id: string;
  /** What was paid of a partly paid (T) invoice; null otherwise (A: all of it, O and U: nothing). */
  paid_amount: string | null;
  /** The invoice's lines as the order system books them; null: one line of the whole amount. */
  lines: PaymentSeedLine[] | null;
}

/** An invoice line of a payment record (schemas/api/order-system-payment.schema.json). */
export interface PaymentSeedLine {
  description: string;
  translations?: Record<string, { description: string }>;
  quantity?: number;
  unitPrice: string;
  vatCategory: 'S' | 'Z' | 'E';
  vatRatePercent: number;
}

export interface PaymentHistorySpec {
  subscriptionId: string;
  /** Number of entries at most (none before `validFrom`). */
  count: number;
  /** Invoice status code of entry i (0 = newest); 'A' when missing. */
  code?: (i: number) => InvoiceStatusCode;
  cycleMonths: number;
  monthlyPrice: number;
  validFrom: number;
  /** Day of the newest entry. */
  lastDay: number;
  /** The lines of every entry, where the invoice has more than one (their amounts make the entry's). */
  lines?: PaymentSeedLine[];
}

/**
 * A partly paid invoice: the order system books what came in, here two fifths
 * (docs/invoices.md "Invoices and documents").
 */
const partPayment = (amountCents: number) => (Math.round(amountCents * 0.4) / 100).toFixed(2);

export function addPaymentHistory(ctx: SeedContext, spec: PaymentHistorySpec): void {
  for (let i = 0; i < spec.count; i++) {
    const date = addMonths(spec.lastDay, -i * spec.cycleMonths);
    if (date < spec.validFrom) break;
    const code = spec.code?.(i) ?? 'A';
    const invoice = ctx.numbers.invoice();
    const year = fromDay(date).slice(0, 4);
    const amountCents = spec.lines
      ? spec.lines.reduce(
          (sum, line) => sum + Math.round((line.quantity ?? 1) * Number(line.unitPrice) * 100),
          0,
        )
      : Math.round(spec.monthlyPrice * spec.cycleMonths * 100);
    ctx.data.paymentHistory.push({
      subscription_id: spec.subscriptionId,
      id: ctx.numbers.payment(),
      date: fromDay(date),
      amount: (amountCents / 100).toFixed(2),
      currency: ctx.currency,
      invoice_status_code: code,
      invoice_number: invoice,
      external_document_number: `RE${year}-${invoice.slice(-6)}`,
      document_id: `DOC-${invoice}`,
      paid_amount: code === 'T' ? partPayment(amountCents) : null,
      lines: spec.lines ?? null,
    });
  }
}

export const paymentHistory: SeedModule = {
  name: 'paymentHistory',
};
