/**
 * Payment history (portal-core.md §3 "Payment history item", §4) and invoice requests (§4, §9).
 */
export type BadgeToneName = 'success' | 'warning' | 'error' | 'info' | 'open' | 'neutral';

export type InvoiceStatusCode = 'U' | 'A' | 'T' | 'O';

/**
 * §4: "A green, T orange, O indigo, U gray": indigo the theme's `open` colour (engine/ui/styles.css
 * `.badge-open`), not the info colour that the type and role badges wear; gray the muted text.
 */
export function paymentStatusTone(code: InvoiceStatusCode): BadgeToneName {
  switch (code) {
    case 'A':
      return 'success';
    case 'T':
      return 'warning';
    case 'O':
      return 'open';
    default:
      return 'neutral';
  }
}

/**
 * The status an invoice shows (§3 "Payment history item" invoiceStatusCode), agreeing with what the
 * invoice states as paid (docs/invoices.md "Paid, partly paid, overpaid"): where the order system
 * sends the paid amount, it decides — all of the amount (or more) paid is A, a part T, nothing O (or
 * U, unknown, as sent) — so a record "A" with half of it paid is not shown as paid beside "still
 * due". Without a paid amount, the order system's code as it is. A credit note (negative amount)
 * counts what was refunded the same way.
 */
export function invoiceStatusOf(
  code: InvoiceStatusCode,
  amount: number,
  paidAmount: number | null | undefined,
): InvoiceStatusCode {
  if (paidAmount == null || !Number.isFinite(paidAmount) || amount === 0) return code;
  const whole = Math.abs(Math.round(amount * 100));
  const paid = Math.round(paidAmount * 100) * (amount < 0 ? -1 : 1);
  if (paid >= whole) return 'A';
  if (paid > 0) return 'T';
  return code === 'U' ? 'U' : 'O';
}

/**
 * Invoice and external document numbers as the invoice request's query carries them (§7
 * invoiceNumber, externalDocumentNumber). The spec sets no format; this bound keeps the query sane:
 * 1 to 35 letters, digits and . / _ -, starting with a letter or digit.
 */
export const DOCUMENT_NUMBER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9./_-]{0,34}$/;

/** §4 "Invoice request outcomes": success, forwarded, processing (only once a day), not_relevant (amount 0). */
export const INVOICE_REQUEST_STATUSES = ['success', 'forwarded', 'processing', 'not_relevant'] as const;
export type InvoiceRequestStatus = (typeof INVOICE_REQUEST_STATUSES)[number];

/**
 * The outcome of a first request of the day: nothing to send for an amount of 0; forwarded when the
 * invoice goes to an invoice recipient other than the user; success otherwise. A second request of
 * the same invoice on the same day is `processing` (the server refuses it, §9 "once per day").
 */
export function invoiceRequestOutcome(
  amount: number,
  invoiceRecipientIsUser: boolean,
): Exclude<InvoiceRequestStatus, 'processing'> {
  if (amount === 0) return 'not_relevant';
  return invoiceRecipientIsUser ? 'success' : 'forwarded';
}

/** The invoice download is saved as `<documentId>.pdf` (§2). Only safe characters reach a file name. */
export function invoiceFileName(documentId: string): string {
  return `${documentId.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
}

/** The XRechnung beside it: `<documentId>-xrechnung.xml`, the same safe characters. */
export function xRechnungFileName(documentId: string): string {
  return `${documentId.replace(/[^A-Za-z0-9._-]/g, '_')}-xrechnung.xml`;
}
