/**
 * The page a hosted provider sends the subscriber back to (hostedCheckout.ts): the outcome in the
 * popup's language, and the same message to the opener the sandbox page sends (account-flows.md §4
 * "Offer acceptance"), addressed to the portal's own origin only. A payment the provider still
 * processes says so and tells the opener `pending`, whose screen then polls until it settles.
 * A page the provider could not open says so and tells the opener nothing: the subscriber closes
 * it, which gives the payment up (account-flows.md §4). The page's policy allows nothing inline: its script and style are files of the router.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';
import type { PaymentStatus } from '../store/paymentStore';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A payment's status, or `unavailable`: the provider's page could not be opened (nothing is told to the opener). */
export type ReturnPageStatus = PaymentStatus | 'unavailable';

export interface HostedReturnPageInput {
  paymentId: string;
  status: ReturnPageStatus;
  /** A payment-method change: its words are those of a change, not a payment. */
  change: boolean;
  locale: Locale;
  tenantName: string;
  basePath: string;
}

export function hostedReturnPage(input: HostedReturnPageInput): string {
  const text = textsIn(input.locale, 'payments');
  const t = (key: string) => escapeHtml(text(`hosted.${key}${input.change ? 'Method' : ''}`));
  return `<!doctype html>
<html lang="${input.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t('title')} – ${escapeHtml(input.tenantName)}</title>
<link rel="stylesheet" href="${input.basePath}api/payments/hosted.css">
</head>
<body>
<main id="payment" data-payment-id="${escapeHtml(input.paymentId)}" data-status="${input.status}">
  <header class="top">
    <h1>${t('title')}</h1>
    <p class="merchant">${escapeHtml(input.tenantName)}</p>
  </header>
  <p id="result" role="status">${t(input.status)}</p>
  <button type="button" id="close" class="secondary">${escapeHtml(text('hosted.close'))}</button>
</main>
<script src="${input.basePath}api/payments/hosted.js"></script>
</body>
</html>`;
}

export const HOSTED_RETURN_SCRIPT = `(function () {
  var main = document.getElementById('payment');
  if (!main) return;
  var status = main.getAttribute('data-status');
  document.getElementById('close').addEventListener('click', function () { window.close(); });
  // Nothing to tell: closing the window gives the payment up, as any closed popup does.
  if (status === 'unavailable') return;
  // Only the portal's own origin may hear it (the opener checks the origin too).
  if (window.opener && !window.opener.closed)
    window.opener.postMessage({ type: 'portal-payment', paymentId: main.getAttribute('data-payment-id'), status: status }, window.location.origin);
  if (status !== 'pending') setTimeout(function () { window.close(); }, 1500);
})();
`;
