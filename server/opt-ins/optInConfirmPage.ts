/**
 * The page the double opt-in link opens (server/opt-ins/optIns.ts): a button that confirms, in the
 * tenant's languages; one script file, nothing inline (the page's own CSP).
 */
import type { Locale } from '../../engine/domain/locales';

const TEXTS: Record<Locale, Record<string, string>> = {
  'de-DE': {
    title: 'Einwilligung bestätigen',
    intro: 'Bitte bestätigen Sie, dass Sie Informationen von {tenant} erhalten möchten.',
    confirm: 'Jetzt bestätigen',
    done: 'Vielen Dank, Ihre Einwilligung ist bestätigt.',
    failed: 'Dieser Link ist abgelaufen oder wurde schon verwendet.',
    back: 'Zum Kundenportal',
  },
  'en-GB': {
    title: 'Confirm your consent',
    intro: 'Please confirm that you would like to hear from {tenant}.',
    confirm: 'Confirm now',
    done: 'Thank you, your consent is confirmed.',
    failed: 'This link has expired or has been used already.',
    back: 'To the customer portal',
  },
};

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function optInConfirmPage(input: {
  tenantName: string;
  locale: Locale;
  basePath: string;
  token: string;
}): string {
  const t = TEXTS[input.locale] ?? TEXTS['en-GB'];
  return `<!doctype html>
<html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${t.title} – ${escapeHtml(input.tenantName)}</title><link rel="stylesheet" href="${input.basePath}api/payments/sandbox.css"></head>
<body><main id="opt-in" data-api="${escapeHtml(input.basePath)}api" data-token="${escapeHtml(input.token)}" data-text-done="${escapeHtml(t.done)}" data-text-failed="${escapeHtml(t.failed)}">
<h1>${t.title}</h1><p>${escapeHtml(t.intro.replace('{tenant}', input.tenantName))}</p>
<button type="button" id="confirm" class="primary">${t.confirm}</button>
<p id="result" role="status" aria-live="polite"></p>
<p><a href="${escapeHtml(input.basePath)}">${t.back}</a></p>
</main><script src="${input.basePath}api/opt-ins/confirm.js"></script></body></html>`;
}

export const OPT_IN_CONFIRM_SCRIPT = `(function () {
  var main = document.getElementById('opt-in');
  var button = document.getElementById('confirm');
  var result = document.getElementById('result');
  function xsrf() {
    var part = document.cookie.split('; ').find(function (c) { return c.indexOf('XSRF-TOKEN=') === 0; });
    return part ? decodeURIComponent(part.slice('XSRF-TOKEN='.length)) : '';
  }
  button.addEventListener('click', function () {
    button.disabled = true;
    fetch(main.getAttribute('data-api') + '/opt-ins/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-xsrf-token': xsrf() },
      body: JSON.stringify({ token: main.getAttribute('data-token') }),
      credentials: 'same-origin'
    }).then(function (response) {
      result.textContent = main.getAttribute(response.ok ? 'data-text-done' : 'data-text-failed');
      button.hidden = true;
    }).catch(function () {
      result.textContent = main.getAttribute('data-text-failed');
      button.disabled = false;
    });
  });
})();
`;
