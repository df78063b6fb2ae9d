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

/**
 * VAT category (UNTDID 5305, EN 16931 BT-118/BT-151): S standard or reduced rate, Z zero-rated (UK
 * newspapers and magazines are zero-rated goods, not exempt), E exempt with a reason.
 */
export type VatCategory = 'S' | 'Z' | 'E';

/** A line's category as booked, else by its rate: S above 0 %, Z at 0 %. */
export function categoryOf(ratePercent: number, category?: VatCategory): VatCategory {
  return category ?? (ratePercent > 0 ? 'S' : 'Z');
}

export interface VatSplit {
  ratePercent: number;
  category: VatCategory;
  /** Why a category E amount is exempt (EN 16931 BT-120, BR-E-10). */
  exemptionReason?: string;
  net: number;
  vat: number;
  gross: number;
}

/** The rate of a publication: its own rate, else the tenant's, else the default. */
export function vatRateFor(
  config: Pick<InvoiceConfig, 'vatRatePercent' | 'vatRatePercentByPublication'> | undefined,
  publication: string | undefined,
): number {
  const own = publication ? config?.vatRatePercentByPublication?.[publication] : undefined;
  return own ?? config?.vatRatePercent ?? DEFAULT_VAT_RATE_PERCENT;
}

/** Works in whole cents so 0.1 + 0.2 style float errors never reach the printed figures. */
export function splitGross(gross: number, ratePercent: number, category?: VatCategory): VatSplit {
  const grossCents = Math.round(gross * 100);
  // Basis points keep a rate like 5.5 % exact; the division is the only inexact step, rounded once.
  const netCents = roundHalfAwayFromZero((grossCents * 10_000) / (10_000 + Math.round(ratePercent * 100)));
  return {
    ratePercent,
    category: categoryOf(ratePercent, category),
    net: netCents / 100,
    vat: (grossCents - netCents) / 100,
    gross: grossCents / 100,
  };
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

/** A line of an invoice as booked: its gross amount and, where it differs from the invoice's, its rate. */
export interface GrossLine {
  amount: number;
  /**
   * The line's own VAT rate: a bundle of a printed paper (7 %) and a digital service
   * (19 %) is one payment of two lines at two rates. Without it the line has the invoice's rate.
   */
  vatRatePercent?: number;
  /** The line's VAT category as the order system books it; by its rate when not given. */
  vatCategory?: VatCategory;
  vatExemptionReason?: string;
}

export interface LineFigures extends VatSplit {
  index: number;
}

export interface InvoiceTotals {
  lines: LineFigures[];
  /** One entry per VAT rate, highest rate first: the VAT breakdown (EN 16931 BG-23). */
  breakdown: VatSplit[];
  net: number;
  vat: number;
  gross: number;
}

/**
 * Net, VAT and gross of every line and of every rate (EN 16931). Each line is split on its own
 * (so the lines' nets are what the e-invoice states per line, EN 16931 BT-131); a rate's taxable
 * amount is the sum of its lines' nets and its VAT the rest of their gross (BR-S-08, BR-CO-17 allow
 * the one cent this may differ from taxable × rate), so net + VAT = gross on every level.
 */
export function invoiceTotals(lines: readonly GrossLine[], defaultRatePercent: number): InvoiceTotals {
  const figures = lines.map((line) => ({
    ...splitGross(line.amount, line.vatRatePercent ?? defaultRatePercent, line.vatCategory),
    ...(line.vatExemptionReason ? { exemptionReason: line.vatExemptionReason } : {}),
  }));
  const cents = (value: number) => Math.round(value * 100);
  // One breakdown per category and rate (BR-CO-17/18): 0 % zero-rated and 0 % exempt are two.
  const byRate = new Map<
    string,
    { ratePercent: number; category: VatCategory; reason?: string; net: number; gross: number }
  >();
  for (const line of figures) {
    const key = `${line.category} ${line.ratePercent}`;
    const sum = byRate.get(key) ?? {
      ratePercent: line.ratePercent,
      category: line.category,
      net: 0,
      gross: 0,
    };
    sum.net += cents(line.net);
    sum.gross += cents(line.gross);
    sum.reason ??= line.exemptionReason;
    byRate.set(key, sum);
  }
  const breakdown = [...byRate.values()]
    .sort((a, b) => b.ratePercent - a.ratePercent || a.category.localeCompare(b.category))
    .map((sum) => ({
      ratePercent: sum.ratePercent,
      category: sum.category,
      ...(sum.reason ? { exemptionReason: sum.reason } : {}),
      net: sum.net / 100,
      vat: (sum.gross - sum.net) / 100,
      gross: sum.gross / 100,
    }));
  const total = (key: 'net' | 'vat' | 'gross') =>
    breakdown.reduce((sum, entry) => sum + cents(entry[key]), 0) / 100;
  return {
    lines: figures.map((line, index) => ({ index, ...line })),
    breakdown,
    net: total('net'),
    vat: total('vat'),
    gross: total('gross'),
  };
}

/** The day `days` after an ISO date: the due date of an unpaid invoice (EN 16931 BT-9). */
export function addDays(isoDate: string, days: number): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}
