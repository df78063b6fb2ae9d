/**
 * The page the double opt-in link opens (server/opt-ins/optInService.ts): a button that confirms, in the
 * tenant's languages (server/texts/<locale>/opt-ins.json); one script file, nothing inline (the
 * page's own CSP). A link that confirms nothing (spent, expired or made up) says so instead of
 * offering the button, so a reload after confirming does not ask again.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

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
  /** The link still confirms something (optInService linkIsOpen). */
  open: boolean;
}): string {
  const text = textsIn(input.locale, 'opt-ins');
  const t = Object.fromEntries(
    (['title', 'confirm', 'done', 'failed', 'back'] as const).map((key) => [key, text(`page.${key}`)]),
  );
  return `<!doctype html>
<html lang="${input.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${t.title} – ${escapeHtml(input.tenantName)}</title><link rel="stylesheet" href="${input.basePath}api/payments/sandbox.css"></head>
<body><main id="opt-in" data-api="${escapeHtml(input.basePath)}api" data-token="${escapeHtml(input.token)}" data-text-done="${escapeHtml(t.done)}" data-text-failed="${escapeHtml(t.failed)}">
<h1>${t.title}</h1>${
    input.open
      ? `<p>${escapeHtml(text('page.intro', { tenant: input.tenantName }))}</p>
<button type="button" id="confirm" class="primary">${t.confirm}</button>
<p id="result" role="status" aria-live="polite"></p>`
      : `<p id="result" role="status">${escapeHtml(t.failed)}</p>`
  }
<p><a href="${escapeHtml(input.basePath)}">${t.back}</a></p>
</main>${input.open ? `<script src="${input.basePath}api/opt-ins/confirm.js"></script>` : ''}</body></html>`;
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
