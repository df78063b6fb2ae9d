/**
 * The figures of an invoice that the payment history does not carry (portal-core.md §3 "Payment
 * history item" has the gross amount only): the VAT split and the service period.
 *
 * VAT: the amounts the order system books are gross. The tenant file names the rate
 * (`invoice.vatRatePercent`, 7 by default: the German reduced rate for newspapers and magazines,
 * §12 (2) Nr. 14 UStG; 0 for zero-rated UK newspapers and magazines), per publication where it
 * differs (`invoice.vatRatePercentByPublication`). Net = gross / (1 + rate) rounded half away from
 * zero to the cent; VAT = gross − net, so net + VAT always equals the gross that was paid.
 */
import type { InvoiceConfig } from '../../schemas/generated/tenant';

/** portal-core.md has no rate; 7 % is the German reduced rate for press (§12 (2) Nr. 14 UStG). */
export const DEFAULT_VAT_RATE_PERCENT = 7;

export interface VatSplit {
  ratePercent: number;
  net: number;
  vat: number;
  gross: number;
}

/** The rate of a publication: its own rate, else the tenant's, else the default. */
export function vatRateFor(config: InvoiceConfig | undefined, publication: string | undefined): number {
  const own = publication ? config?.vatRatePercentByPublication?.[publication] : undefined;
  return own ?? config?.vatRatePercent ?? DEFAULT_VAT_RATE_PERCENT;
}

/** Works in whole cents so 0.1 + 0.2 style float errors never reach the printed figures. */
export function splitGross(gross: number, ratePercent: number): VatSplit {
  const grossCents = Math.round(gross * 100);
  // Basis points keep a rate like 5.5 % exact; the division is the only inexact step, rounded once.
  const netCents = roundHalfAwayFromZero((grossCents * 10_000) / (10_000 + Math.round(ratePercent * 100)));
  return { ratePercent, net: netCents / 100, vat: (grossCents - netCents) / 100, gross: grossCents / 100 };
}

function roundHalfAwayFromZero(value: number): number {
  // A tiny epsilon absorbs binary noise such as 934.4999999 that is really .5.
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}

/** Months of a billing cycle by the order system's code (subscription.schema.json "billingFrequency"). */
const CYCLE_MONTHS: Record<string, number> = { '01': 1, '03': 3, '06': 6, '12': 12 };

export interface ServicePeriod {
  from: string;
  /** Null when the billing cycle is unknown: the invoice then prints "from <date>". */
  to: string | null;
}

/**
 * The period a payment pays for: one billing cycle from the payment date (the seed books one entry
 * per cycle on its first day), the day before the next cycle starts as its last day, never past the
 * end of the subscription.
 */
export function servicePeriod(
  paymentDate: string,
  billingFrequency: string | null | undefined,
  validTo: string | null | undefined,
): ServicePeriod {
  const months = billingFrequency ? CYCLE_MONTHS[billingFrequency] : undefined;
  if (!months) return { from: paymentDate, to: null };
  const [year, month, day] = paymentDate.split('-').map(Number);
  const start = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls over month ends (31 Jan + 1 month = 3 Mar); clamp to the last day of the target month.
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastOfTarget = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  const next = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(day, lastOfTarget)));
  const end = new Date(next.getTime() - 86_400_000);
  let to = end.toISOString().slice(0, 10);
  if (validTo && validTo < to && validTo >= start.toISOString().slice(0, 10)) to = validTo;
  return { from: paymentDate, to };
}
