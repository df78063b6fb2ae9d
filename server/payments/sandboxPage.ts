/**
 * The sandbox payment page (server/payments/sandboxProvider.ts): plain HTML, one script and one
 * style file (the page's policy allows nothing inline). The script posts the form to the server,
 * then tells the opener the outcome — addressed to the portal's own origin — and closes the popup.
 *
 * What it shows: the subscription(s), order number(s) and amount the
 * payment is for, taken from what it really pays for (server/payments/paymentSummary.ts), in the
 * language of the page that opened it; a payment-method change that charges nothing says so and
 * its button saves the card instead of paying; all of it fits the 640 × 640 popup
 * (account-flows.md §7, §9 "Popup default size 640 by 640") without scrolling to a button.
 */
import { formatMoney } from '../../engine/domain/money';
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';
import { mailWord } from '../account/changeMails';
import { cancelCauseOf, type PaymentRow } from '../store/paymentStore';
import type { PaymentSummary } from './paymentSummary';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface SandboxPageInput {
  payment: Pick<PaymentRow, 'id' | 'method' | 'status' | 'details'>;
  summary: PaymentSummary;
  /** The language of the page that opened the popup (sandboxProvider.ts pageLocale). */
  locale: Locale;
  tenantName: string;
  basePath: string;
  key: string;
}

/**
 * What a page opened again says of a payment no longer open: its outcome, as the opener's dialog
 * said it (account-flows.md §8 success, paymentCanceled, paymentError); a payment given up on the
 * portal's page is cancelled, not completed.
 */
function settledText(
  payment: SandboxPageInput['payment'],
  pick: (key: string, changeKey: string) => string,
  voided: string,
): string {
  const { status } = payment;
  // The portal cancelled it, not its payer: the subscription was cancelled while the page was open.
  if (cancelCauseOf(payment) === 'subscription_cancelled') return voided;
  if (status === 'canceled') return pick('settledCanceled', 'settledCanceledMethod');
  if (status === 'error') return pick('settledError', 'settledErrorMethod');
  return pick('settled', 'settledMethod');
}

/**
 * What the page says of a card field the sandbox refused (sandboxProvider.ts sandboxOutcome's
 * codes), beside the field: `invalid<Field>`, `expiredExpiry`, `requiredHolder`.
 */
const FIELD_TEXTS = ['invalidCardNumber', 'invalidExpiry', 'expiredExpiry', 'requiredHolder'] as const;

export function sandboxPage(input: SandboxPageInput): string {
  const { payment, summary, locale } = input;
  // Every text of the page is server/texts/<locale>/payments.json (CONVENTIONS.md 7).
  const text = textsIn(locale, 'payments');
  const t = (key: string, values: Record<string, string> = {}) => escapeHtml(text(`sandbox.${key}`, values));
  // Nothing is charged (a payment-method change registers a card or PayPal for later): the page
  // says so instead of "€0.00 · Pay now", and its words are those of a change, not a payment.
  const noCharge = summary.amount === 0;
  const change = noCharge || summary.newMethod !== null;
  const pick = (key: string, changeKey: string) => t(change ? changeKey : key);
  const amount = formatMoney(summary.amount, summary.currency, locale);
  const messages = (['success', 'error', 'canceled', 'settled'] as const)
    .map((k) => ` data-text-${k}="${pick(k, `${k}Method`)}"`)
    .concat(
      (['invalid', 'failed', 'voided', ...FIELD_TEXTS] as const).map(
        (k) => ` data-text-${k.toLowerCase()}="${t(k)}"`,
      ),
    )
    .join('');
  const lines = summary.lines
    .map(
      (line) => `
      <li>${line.subscription ? `<strong class="subscription">${escapeHtml(line.subscription)}</strong>` : ''}
        <span class="order-number">${t('orderNumber', { number: line.orderNumber })}</span>
        <span class="item">${line.offer !== null ? escapeHtml(line.offer) : t('newMethod', { method: mailWord(locale, summary.newMethod ?? 'credit_card') })}</span></li>`,
    )
    .join('');
  const cardFields = `
      <label for="cardNumber">${t('cardNumber')}</label>
      <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required aria-describedby="cardNumber-error">
      <p class="field-error" id="cardNumber-error" hidden></p>
      <div class="pair">
        <div><label for="expiry">${t('expiry')}</label>
        <input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="${t('expiryPlaceholder')}" required aria-describedby="expiry-error">
        <p class="field-error" id="expiry-error" hidden></p></div>
        <div><label for="holder">${t('holder')}</label>
        <input id="holder" name="holder" autocomplete="cc-name" required aria-describedby="holder-error">
        <p class="field-error" id="holder-error" hidden></p></div>
      </div>
      <p class="hint">${t('testCards')}</p>`;
  const paypal = `
      <p class="hint">${pick('paypalIntro', 'paypalIntroMethod')}</p>`;
  const submit =
    payment.method === 'PAYPAL'
      ? `<button type="submit" class="primary" data-action="approve">${pick('approve', 'approveMethod')}</button>`
      : `<button type="submit" class="primary" data-action="pay">${pick('pay', 'saveCard')}</button>`;
  const settled = payment.status !== 'pending';
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${pick('title', 'titleMethod')} – ${escapeHtml(input.tenantName)}</title>
<link rel="stylesheet" href="${input.basePath}api/payments/sandbox.css">
</head>
<body>
<main id="payment" data-payment-id="${escapeHtml(payment.id)}" data-key="${escapeHtml(input.key)}" data-api="${escapeHtml(input.basePath)}api"${messages}>
  <header class="top">
    <h1>${pick('title', 'titleMethod')}</h1>
    <p class="merchant">${escapeHtml(input.tenantName)}</p>
  </header>
  <p class="banner">${t('sandbox')}</p>
  <section class="summary" aria-labelledby="pays-for">
    <h2 id="pays-for">${pick('paysFor', 'changeFor')}</h2>
    <ul class="lines">${lines}
    </ul>
    ${noCharge ? `<p class="amount no-charge">${t('noCharge')}</p>` : `<p class="amount">${t('amount')}: <strong>${escapeHtml(amount)}</strong></p>`}
  </section>
  ${
    settled
      ? `<p role="status">${settledText(payment, pick, t('voided'))}</p>`
      : `<form id="pay-form" novalidate>
    ${payment.method === 'PAYPAL' ? paypal : cardFields}
    <div class="actions">
      ${submit}
      <button type="submit" class="secondary" data-action="cancel" formnovalidate>${pick('cancel', 'cancelMethod')}</button>
    </div>
  </form>`
  }
  <p id="result" role="status" aria-live="polite"></p>
  <button type="button" id="close" class="secondary" hidden>${t('close')}</button>
</main>
<script src="${input.basePath}api/payments/sandbox.js"></script>
</body>
</html>`;
}

export const SANDBOX_PAGE_SCRIPT = `(function () {
  var main = document.getElementById('payment');
  var form = document.getElementById('pay-form');
  var result = document.getElementById('result');
  var closeButton = document.getElementById('close');
  if (!main) return;
  var paymentId = main.getAttribute('data-payment-id');
  var action = 'pay';
  function text(name) { return main.getAttribute('data-text-' + name) || ''; }
  function xsrf() {
    var part = document.cookie.split('; ').find(function (c) { return c.indexOf('XSRF-TOKEN=') === 0; });
    return part ? decodeURIComponent(part.slice('XSRF-TOKEN='.length)) : '';
  }
  function tellOpener(status) {
    // Only the portal's own origin may hear it (the opener checks the origin too).
    if (window.opener && !window.opener.closed) window.opener.postMessage({ type: 'portal-payment', paymentId: paymentId, status: status }, window.location.origin);
  }
  closeButton.addEventListener('click', function () { window.close(); });
  if (!form) return;
  // Each refused field says why beside it, and the first one takes the focus; what was typed stays.
  function showFieldErrors(fields) {
    var first = null;
    ['cardNumber', 'expiry', 'holder'].forEach(function (name) {
      var input = form.elements[name];
      var note = document.getElementById(name + '-error');
      if (!input || !note) return;
      var code = fields[name];
      var words = code ? text((code + name).toLowerCase()) : '';
      note.textContent = words;
      note.hidden = !words;
      if (words) { input.setAttribute('aria-invalid', 'true'); first = first || input; }
      else input.removeAttribute('aria-invalid');
    });
    if (first) first.focus();
  }
  form.querySelectorAll('button[data-action]').forEach(function (button) {
    button.addEventListener('click', function () { action = button.getAttribute('data-action'); });
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var body = { key: main.getAttribute('data-key'), action: action };
    if (action === 'pay') {
      body.cardNumber = form.cardNumber.value.trim();
      body.expiry = form.expiry.value.trim();
      body.holder = form.holder.value.trim();
    }
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    result.textContent = '';
    showFieldErrors({});
    fetch(main.getAttribute('data-api') + '/payments/sandbox/' + encodeURIComponent(paymentId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-xsrf-token': xsrf() },
      body: JSON.stringify(body),
      credentials: 'same-origin'
    }).then(function (response) {
      return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
    }).then(function (reply) {
      if (!reply.ok) {
        var error = reply.answer && reply.answer.error;
        var invalid = error && error.code === 'validation_failed';
        result.textContent = invalid ? text('invalid') : text('failed');
        buttons.forEach(function (b) { b.disabled = false; });
        if (invalid) showFieldErrors((error.details && error.details.fields) || {});
        return;
      }
      var status = reply.answer.status;
      var voided = reply.answer.canceledBecause === 'subscription_cancelled';
      result.textContent = (voided && text('voided')) || text(status) || text('settled');
      form.hidden = true;
      closeButton.hidden = false;
      tellOpener(status);
      setTimeout(function () { window.close(); }, 1500);
    }).catch(function () {
      result.textContent = text('failed');
      buttons.forEach(function (b) { b.disabled = false; });
    });
  });
})();
`;

/**
 * The rules under #payment keep the payment page inside the 640 × 640 popup (account-flows.md §9) in both
 * languages: compact spacing, expiry and holder side by side, both buttons in one row, and a long
 * bulk renewal's list scrolling inside its box instead of pushing the buttons down.
 */
export const SANDBOX_PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 26rem; margin: 1.5rem auto; background: #fff; border-radius: 8px; padding: 1.25rem 1.5rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
.banner { background: #fff4d6; border: 1px solid #e0b84c; padding: .4rem .6rem; border-radius: 4px; font-size: .9rem; }
.merchant { font-weight: 600; margin-bottom: 0; }
.amount { font-size: 1.1rem; }
label { display: block; font-weight: 600; margin: .8rem 0 .25rem; }
input { width: 100%; box-sizing: border-box; font: inherit; padding: .55rem .6rem; border: 1px solid #8a93a3; border-radius: 4px; }
input:focus, button:focus { outline: 3px solid #2b6cb0; outline-offset: 2px; }
.hint { font-size: .85rem; color: #4a5363; }
button { display: block; width: 100%; font: inherit; padding: .65rem; margin-top: .8rem; border-radius: 4px; cursor: pointer; border: 1px solid #1f4f8a; }
button.primary { background: #1f4f8a; color: #fff; }
button.secondary { background: #fff; color: #1f4f8a; }
button:disabled { opacity: .6; cursor: default; }
#result { font-weight: 600; min-height: 1.2em; }
#payment { max-width: 32rem; margin: .75rem auto; padding: .9rem 1.25rem; line-height: 1.35; }
#payment .top { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 0 1rem; }
#payment h1 { font-size: 1.2rem; margin: 0; }
#payment .merchant { margin: 0; color: #4a5363; }
#payment .banner { margin: .5rem 0; padding: .3rem .6rem; font-size: .85rem; }
#payment .summary { border: 1px solid #d5d9e0; border-radius: 4px; padding: .45rem .75rem; margin: .5rem 0; }
#payment h2 { font-size: .85rem; font-weight: 600; color: #4a5363; margin: 0 0 .2rem; }
#payment .lines { list-style: none; margin: 0; padding: 0; max-height: 8.6rem; overflow-y: auto; }
#payment .lines li { padding: .15rem 0; }
#payment .lines li + li { border-top: 1px solid #eceef2; }
#payment .subscription, #payment .order-number, #payment .item { display: block; }
#payment .order-number { color: #4a5363; }
#payment .amount { margin: .35rem 0 0; }
#payment .no-charge { font-weight: 600; }
#payment label { margin: .5rem 0 .2rem; }
#payment input { padding: .45rem .6rem; }
#payment .pair { display: grid; grid-template-columns: 1fr 1.5fr; gap: 0 .75rem; }
#payment .hint { margin: .4rem 0 0; }
#payment .actions { display: flex; flex-wrap: wrap; gap: 0 .75rem; }
#payment .actions button { flex: 1 1 12rem; width: auto; margin-top: .6rem; }
#payment #result { margin: .4rem 0 0; }
#payment #close { margin-top: .4rem; }
#payment .field-error { margin: .2rem 0 0; font-size: .85rem; color: #a4161a; }
#payment input[aria-invalid="true"] { border-color: #a4161a; }
@media (max-width: 26rem) { #payment .pair { grid-template-columns: 1fr; } }
[hidden] { display: none !important; }
`;
