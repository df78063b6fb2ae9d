/**
 * /preview/preview.js — the behaviour of the QA page (previewPage.ts), plain browser JavaScript
 * served as a file so the page's Content-Security-Policy allows only scripts from its own origin.
 *
 * - Sign-in: a frame with a chosen demo login asks POST /preview/api/sign-in for a single-use
 *   login link and the user's ids, opens the link (the portal's own login screen makes the
 *   session, kept in session storage under that tenant's key, engine/core/tenantSession.ts), waits
 *   until the portal has left /login, then opens the chosen screen with its ids filled in.
 * - Fit: every frame keeps the chosen CSS width and is scaled (CSS transform) so all fit the window.
 * - Synced scrolling: frames share the page's origin, so each frame's scroll is applied to the
 *   others; a frame scrolled by us ignores its own scroll events for a moment (no ping-pong).
 * - The tenant checkboxes submit as one `tenants=` value; the location line follows each frame.
 */
import { MAILED_LINK_PARAMS } from './previewScreens';

export const PREVIEW_SCRIPT = String.raw`(function () {
  'use strict';
  var row = document.querySelector('.row');
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.tenant'));
  var frames = sections.map(function (s) { return s.querySelector('iframe'); });
  var sync = document.getElementById('sync');
  var ignoreUntil = new Map();

  function fit() {
    if (!row || !sections.length) return;
    var width = Number(row.getAttribute('data-width')) || 360;
    var gap = 16;
    var available = (row.clientWidth - gap * (sections.length - 1)) / sections.length;
    var scale = Math.max(0.2, Math.min(1, available / width));
    var top = row.getBoundingClientRect().top + window.scrollY;
    var height = Math.max(420, window.innerHeight - 24 - Math.min(top, 260));
    sections.forEach(function (section, i) {
      var wrap = section.querySelector('.frame-wrap');
      var frame = frames[i];
      wrap.style.width = Math.floor(width * scale) + 'px';
      wrap.style.height = Math.floor(height) + 'px';
      frame.style.width = width + 'px';
      frame.style.height = Math.ceil(height / scale) + 'px';
      frame.style.transform = scale < 1 ? 'scale(' + scale + ')' : '';
      section.style.flex = '0 0 ' + Math.floor(width * scale) + 'px';
      section.querySelector('.scale').textContent = '(' + width + ' px' + (scale < 1 ? ', shown at ' + Math.round(scale * 100) + ' %' : '') + ')';
    });
  }

  function attachScroll(frame) {
    var win;
    try { win = frame.contentWindow; if (!win || win.location.href === 'about:blank' || win.__previewScroll) return; win.__previewScroll = true; } catch (e) { return; }
    win.addEventListener('scroll', function () {
      if (!sync || !sync.checked) return;
      if ((ignoreUntil.get(frame) || 0) > Date.now()) return;
      var y = win.scrollY;
      frames.forEach(function (other) {
        if (other === frame || !other.contentWindow) return;
        ignoreUntil.set(other, Date.now() + 120);
        try { other.contentWindow.scrollTo(0, y); } catch (e) { /* another origin: left alone */ }
      });
    }, { passive: true });
  }

  function readSession(tenant) {
    try { return JSON.parse(sessionStorage.getItem('portal.authState.' + tenant) || 'null'); } catch (e) { return null; }
  }

  function until(check, ms) {
    return new Promise(function (resolve, reject) {
      var started = Date.now();
      (function poll() {
        var ok = false;
        try { ok = check(); } catch (e) { ok = false; }
        if (ok) return resolve();
        if (Date.now() - started > ms) return reject(new Error('timed out'));
        setTimeout(poll, 100);
      })();
    });
  }

  // As fillScreenPath and missingReason (previewScreens.ts): the screen's own subscription first.
  var MAILED_LINK_PARAMS = ${JSON.stringify(MAILED_LINK_PARAMS)};
  function fill(path, ids, screen) {
    var own = Object.assign({}, ids, (screen && ids.screens && ids.screens[screen]) || {});
    var missing = [];
    var filled = path.replace(/:([A-Za-z]+)/g, function (_, name) {
      if (own[name] == null) { missing.push(name); return ''; }
      return encodeURIComponent(own[name]);
    });
    return { path: filled, missing: missing };
  }

  function withLang(path, lang) {
    return lang ? path + (path.indexOf('?') >= 0 ? '&' : '?') + 'lang=' + lang : path;
  }

  /** Where a frame is now (a login token in the query is not shown). */
  function where(frame) {
    try {
      var at = frame.contentWindow.location;
      return at.href === 'about:blank' ? '' : at.pathname + at.search.replace(/([?&]p=)[^&]*/, '$1…');
    } catch (e) { return ''; /* another origin */ }
  }

  function show(section, frame, src) {
    frame.src = src;
    section.querySelector('.location').textContent = src.replace(/([?&]p=)[^&]*/, '$1…');
  }

  async function signIn(section, frame) {
    var tenant = section.getAttribute('data-tenant');
    var email = section.getAttribute('data-user');
    var lang = section.getAttribute('data-lang');
    var status = section.querySelector('.status');
    var response = await fetch('/preview/api/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(lang ? { tenant: tenant, email: email, lang: lang } : { tenant: tenant, email: email }),
    });
    var answer = await response.json().catch(function () { return {}; });
    if (!response.ok) { status.textContent = 'Could not sign in: ' + ((answer.error && answer.error.message) || response.status); return; }
    // A fresh session each time: the frame's earlier one may have expired or be another user's.
    sessionStorage.removeItem('portal.authState.' + tenant);
    show(section, frame, answer.link);
    try {
      await until(function () {
        var auth = readSession(tenant);
        return auth && auth.accessToken && frame.contentWindow.location.pathname.indexOf('/login') < 0;
      }, 20000);
    } catch (e) {
      status.textContent = 'The sign-in did not finish: see the frame.';
      return;
    }
    var path = section.getAttribute('data-path');
    var filled = fill(path, answer.ids || {}, section.getAttribute('data-route'));
    if (filled.missing.length) {
      var mailed = filled.missing.some(function (name) { return MAILED_LINK_PARAMS.indexOf(name) >= 0; });
      status.textContent = 'Signed in as ' + answer.email + '; ' + (mailed
        ? 'this screen opens from a mailed invitation link, which the preview does not make.'
        : answer.email + ' has no ' + filled.missing.join(', ') + ' for this screen.');
      return;
    }
    status.textContent = 'Signed in as ' + answer.email + '.';
    show(section, frame, withLang('/t/' + tenant + filled.path, lang));
  }

  frames.forEach(function (frame, i) {
    frame.addEventListener('load', function () {
      attachScroll(frame);
      var at = where(frame);
      if (at) sections[i].querySelector('.location').textContent = at;
    });
    attachScroll(frame);
  });
  // The portals are single-page apps: their in-app navigation fires no load event.
  setInterval(function () {
    frames.forEach(function (frame, i) {
      var at = where(frame);
      if (at) sections[i].querySelector('.location').textContent = at;
    });
  }, 1000);

  sections.forEach(function (section, i) {
    if (section.getAttribute('data-user')) signIn(section, frames[i]).catch(function (error) { section.querySelector('.status').textContent = 'Could not sign in: ' + error.message; });
  });

  var form = document.getElementById('controls');
  if (form) form.addEventListener('submit', function () {
    var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name=t]'));
    var hidden = document.createElement('input');
    hidden.type = 'hidden';
    hidden.name = 'tenants';
    hidden.value = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }).join(',');
    boxes.forEach(function (b) { b.disabled = true; });
    form.appendChild(hidden);
    var path = form.querySelector('input[name=path]');
    if (path && !path.value) path.disabled = true;
    var custom = form.querySelector('input[name=customWidth]');
    if (custom && !custom.value) custom.disabled = true;
  });

  // Choosing another demo login for a frame shows it at once.
  Array.prototype.slice.call(document.querySelectorAll('select[name^="user."]')).forEach(function (select) {
    select.addEventListener('change', function () { if (form) form.requestSubmit(); });
  });

  fit();
  window.addEventListener('resize', fit);
})();
`;
