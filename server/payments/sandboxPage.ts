/**
 * The sandbox payment page (server/payments/sandboxProvider.ts): plain HTML in the payment's
 * language, one script and one style file (the page's policy allows nothing inline). The script
 * posts the form to the server, then tells the opener the outcome — addressed to the portal's own
 * origin — and closes the popup.
 */
import type { Locale } from '../../engine/core/portalConfig';
import type { PaymentRow } from '../store/offerStore';

const TEXTS: Record<Locale, Record<string, string>> = {
  'de-DE': {
    title: 'Zahlung (Testumgebung)',
    sandbox: 'Testumgebung: Es wird kein Geld bewegt.',
    amount: 'Betrag',
    cardNumber: 'Kartennummer',
    expiry: 'Gültig bis (MM/JJ)',
    holder: 'Karteninhaber',
    pay: 'Jetzt bezahlen',
    approve: 'Mit PayPal (Test) bezahlen',
    cancel: 'Zahlung abbrechen',
    paypalIntro: 'Sie werden zum Test-PayPal-Konto weitergeleitet. Bestätigen Sie die Zahlung oder brechen Sie sie ab.',
    testCards: 'Testkarten: 4242 4242 4242 4242 (erfolgreich), 4000 0000 0000 0002 (abgelehnt), 4000 0000 0000 3220 (abgebrochen).',
    success: 'Zahlung erfolgreich. Dieses Fenster schließt sich.',
    error: 'Die Zahlung wurde abgelehnt. Dieses Fenster schließt sich.',
    canceled: 'Die Zahlung wurde abgebrochen. Dieses Fenster schließt sich.',
    invalid: 'Bitte prüfen Sie die Kartendaten.',
    failed: 'Die Zahlung konnte nicht übermittelt werden. Bitte versuchen Sie es erneut.',
    close: 'Fenster schließen',
    settled: 'Diese Zahlung ist bereits abgeschlossen.',
  },
  'en-GB': {
    title: 'Payment (sandbox)',
    sandbox: 'Sandbox: no money is moved.',
    amount: 'Amount',
    cardNumber: 'Card number',
    expiry: 'Expiry (MM/YY)',
    holder: 'Cardholder name',
    pay: 'Pay now',
    approve: 'Pay with PayPal (sandbox)',
    cancel: 'Cancel payment',
    paypalIntro: 'This is the sandbox PayPal account. Approve the payment or cancel it.',
    testCards: 'Test cards: 4242 4242 4242 4242 (succeeds), 4000 0000 0000 0002 (declined), 4000 0000 0000 3220 (cancelled).',
    success: 'Payment successful. This window closes now.',
    error: 'The payment was declined. This window closes now.',
    canceled: 'The payment was cancelled. This window closes now.',
    invalid: 'Please check the card details.',
    failed: 'The payment could not be sent. Please try again.',
    close: 'Close window',
    settled: 'This payment has already been completed.',
  },
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sandboxPage(input: { payment: PaymentRow; tenantName: string; basePath: string; key: string }): string {
  const { payment } = input;
  const t = TEXTS[payment.locale] ?? TEXTS['en-GB'];
  const amount = new Intl.NumberFormat(payment.locale, { style: 'currency', currency: payment.currency }).format(payment.amount);
  const messages = ['success', 'error', 'canceled', 'invalid', 'failed', 'settled'].map((k) => ` data-text-${k}="${escapeHtml(t[k])}"`).join('');
  const cardFields = `
      <label for="cardNumber">${t.cardNumber}</label>
      <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
      <label for="expiry">${t.expiry}</label>
      <input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="MM/YY" required>
      <label for="holder">${t.holder}</label>
      <input id="holder" name="holder" autocomplete="cc-name" maxlength="60" required>
      <p class="hint">${t.testCards}</p>
      <button type="submit" class="primary" data-action="pay">${t.pay}</button>`;
  const paypal = `
      <p>${t.paypalIntro}</p>
      <button type="submit" class="primary" data-action="approve">${t.approve}</button>`;
  const settled = payment.status !== 'pending';
  return `<!doctype html>
<html lang="${payment.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t.title} – ${escapeHtml(input.tenantName)}</title>
<link rel="stylesheet" href="${input.basePath}api/payments/sandbox.css">
</head>
<body>
<main id="payment" data-payment-id="${escapeHtml(payment.id)}" data-key="${escapeHtml(input.key)}" data-api="${escapeHtml(input.basePath)}api"${messages}>
  <h1>${t.title}</h1>
  <p class="banner">${t.sandbox}</p>
  <p class="merchant">${escapeHtml(input.tenantName)}</p>
  <p class="description">${escapeHtml(payment.description)}</p>
  <p class="amount">${t.amount}: <strong>${escapeHtml(amount)}</strong></p>
  ${
    settled
      ? `<p role="status">${t.settled}</p>`
      : `<form id="pay-form" novalidate>
    ${payment.method === 'PAYPAL' ? paypal : cardFields}
    <button type="submit" class="secondary" data-action="cancel" formnovalidate>${t.cancel}</button>
  </form>`
  }
  <p id="result" role="status" aria-live="polite"></p>
  <button type="button" id="close" class="secondary" hidden>${t.close}</button>
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
    fetch(main.getAttribute('data-api') + '/payments/sandbox/' + encodeURIComponent(paymentId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-xsrf-token': xsrf() },
      body: JSON.stringify(body),
      credentials: 'same-origin'
    }).then(function (response) {
      return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; });
    }).then(function (reply) {
      if (!reply.ok) {
        result.textContent = reply.answer && reply.answer.error && reply.answer.error.code === 'validation_failed' ? text('invalid') : text('failed');
        buttons.forEach(function (b) { b.disabled = false; });
        return;
      }
      var status = reply.answer.status;
      result.textContent = text(status) || text('settled');
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

export const SANDBOX_PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 26rem; margin: 1.5rem auto; background: #fff; border-radius: 8px; padding: 1.25rem 1.5rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
.banner { background: #fff4d6; border: 1px solid #e0b84c; padding: .4rem .6rem; border-radius: 4px; font-size: .9rem; }
.merchant { font-weight: 600; margin-bottom: 0; }
.description { margin-top: .2rem; }
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
`;
