import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { BrowserRouter, useRoutes } from 'react-router';
import { readPortalConfig } from '../core/portalConfig';
import {
  addressWithoutLang,
  createI18n,
  initialLocale,
  keepLocaleCookie,
  rememberLocale,
} from '../core/i18n';
import { TranslationProvider } from '../core/translation';
import { createApiClient } from '../core/apiClient';
import { authStateAtom, isLoggedIn } from '../core/authState';
import { createTenantSession, openSessionChannel } from '../core/tenantSession';
import { notifyHostFrame } from '../core/hostFrame';
import { PortalContext, type PortalServices } from '../core/PortalContext';
import { buildRoutes, startFirstScreen } from './router';
import { preloadEmbeddedSignInNotice } from './access';
import { FeatureRoutesProvider } from '../core/featureRoutes';
import { featureRoutesOf } from './featureRoutes';
import type { ReportError } from '../core/errorReporting';
import { sendClientErrorReport } from '../core/clientErrorSender';
import { ERROR_REPORT_SAMPLE_RATE } from '../domain/clientErrorKinds';
import { ScreenErrorBoundary } from '../core/ScreenErrorBoundary';
import { authStateKey, sessionHintKey } from '../domain/sessionStorageKeys';
import '../ui/styles.css';

async function boot() {
  const config = readPortalConfig();
  // Client error reports (engine/core/errorReporting.ts): what the browser could not do reaches
  // the operator's logs and metrics, a sample of it (portal-core.md §9 "Error-reporting sample rate").
  // Their code loads with the first error, not with every page.
  let reporter: Promise<ReportError> | undefined;
  let missingReporterSaid = false;
  const reportError: ReportError = (error, kind) => {
    reporter ??= import('../core/errorReporting').then(({ createErrorReporter }) =>
      createErrorReporter({
        basePath: config.basePath,
        pathname: () => window.location.pathname.slice(config.basePath.length - 1),
      }),
    );
    reporter.then(
      (report) => report(error, kind),
      () => {
        // Its file did not load either: a tab whose build is gone, or no connection. The next
        // error tries again; this one is said without its details, once a page, as a sample.
        reporter = undefined;
        if (missingReporterSaid || Math.random() >= ERROR_REPORT_SAMPLE_RATE) return;
        missingReporterSaid = true;
        void sendClientErrorReport(config.basePath, {
          kind: 'chunk',
          name: 'Error',
          message: 'A script file and the error reports did not load.',
          path: '/',
        });
      },
    );
  };
  // Only errors of the portal's own scripts: another origin's script (a tenant's contact widget)
  // reaches this listener as "Script error." without the error itself.
  window.addEventListener('error', (event) => event.error && reportError(event.error, 'error'));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason, 'rejection'));
  const reportCaught = (error: unknown) => {
    console.error(error);
    reportError(error, 'render');
  };
  const locale = initialLocale(config, window.location.search);
  // A `?lang` the tenant offers (a sign-in link carries it) is the visitor's choice from now on,
  // and leaves the address: the flag button's later choice wins over it on a reload.
  const withoutLang = addressWithoutLang(window.location);
  if (withoutLang !== undefined) {
    rememberLocale(config.tenant.id, locale);
    window.history.replaceState(window.history.state, '', withoutLang);
  }
  keepLocaleCookie(config.basePath, locale);
  // The embedded portal's sign-in notice is the first paint of a visit there without a session:
  // asked for now, beside the language's texts, and only there (engine/app/access.tsx).
  if (config.tenant.embedding.isEmbedded) preloadEmbeddedSignInNotice();
  // The first screen's module, asked for beside the language's texts, so it renders at once; by
  // the session the tab keeps, or another tab has to hand over (engine/core/tenantSession.ts).
  const storage = storageOrUndefined(() => window.sessionStorage);
  const hints = storageOrUndefined(() => window.localStorage);
  startFirstScreen(
    window.location.pathname.slice(config.basePath.length - 1),
    window.location.search,
    Boolean(
      storage?.getItem(authStateKey(config.tenant.id)) || hints?.getItem(sessionHintKey(config.tenant.id)),
    ),
    config.tenant.embedding.isEmbedded,
  );
  const i18n = await createI18n(config, locale);
  document.documentElement.lang = i18n.language;
  i18n.on('languageChanged', (lng) => (document.documentElement.lang = lng));

  const store = createStore();
  const session = createTenantSession({
    tenantId: config.tenant.id,
    storage,
    hints,
    channel: openSessionChannel(config.tenant.id),
  });
  store.set(authStateAtom, await session.restore());
  // The auth state is the truth; a sign-in (useCompleteLogin sets it) is kept and handed to the other tabs.
  store.sub(authStateAtom, () => {
    const auth = store.get(authStateAtom);
    if (isLoggedIn(auth) && auth.loginSource) {
      session.signedIn({
        user: auth.user!,
        accessToken: auth.accessToken!,
        loginSource: auth.loginSource,
        subscriptionId: auth.subscriptionId,
      });
    }
  });
  session.onRemoteChange((change) => {
    const before = store.get(authStateAtom);
    if (change.type === 'signed-in' && (!before.user || before.user.id === change.session.user.id)) {
      store.set(authStateAtom, { ...change.session, sessionHasTimedOut: false });
      return;
    }
    if (change.type === 'ended' && change.timedOut) {
      notifyHostFrame('sessionTimedOut', config.tenant.embedding.parentOrigins);
      if (config.tenant.embedding.isEmbedded) {
        store.set(authStateAtom, { sessionHasTimedOut: true });
        return;
      }
    }
    // Ended, or another user signed in: a full load resets every store (see logout below).
    window.location.reload();
  });

  // The declarative router: the data router (createBrowserRouter) adds 16 KB of gzipped JavaScript
  // to every screen for loaders and actions the portal does not use (docs/testing.md "Speed and size").
  const routes = buildRoutes(config.tenant.features);
  // The shell itself failing leaves the failure's notice, not a blank page (engine/core/ScreenErrorBoundary.tsx).
  const PortalRoutes = () => <ScreenErrorBoundary>{useRoutes(routes)}</ScreenErrorBoundary>;

  // The session whose end was last told (onUnauthorized below).
  let timedOutToken: string | undefined;
  const api = createApiClient({
    basePath: config.basePath,
    getAccessToken: () => store.get(authStateAtom).accessToken,
    getLocale: () => i18n.language,
    // §2: any 401 other than on login logs the user out; it marks the timed-out state. Once per
    // session: the calls in flight when it ended answer 401 each, and the host page is told once
    // (the first one's log-out has cleared the token, or is clearing it).
    onUnauthorized: () => {
      const token = store.get(authStateAtom).accessToken;
      if (token === undefined || token === timedOutToken) return;
      timedOutToken = token;
      void logout({ timedOut: true });
    },
  });

  /**
   * §4 log-out: clears session storage (in every tab of the tenant, engine/core/tenantSession.ts)
   * and every store, then goes where a log-out leads (engine/app/afterLogout.ts, loaded beside the
   * call to the server). After a timeout an embedded portal stays on its page and shows the
   * session-expired text once it has told its host page; the timed-out mark survives the page load
   * that follows elsewhere, in session storage.
   */
  async function logout(options: { timedOut?: boolean; accountDeleted?: boolean; leftClub?: boolean } = {}) {
    const leave = import('./afterLogout').catch(() => undefined);
    const { accessToken } = store.get(authStateAtom);
    if (accessToken && !options.timedOut) await api.post('/logout').catch(() => undefined);
    session.ended({ timedOut: options.timedOut });
    // Loaded only here (the login screen shares its chunk): its code is for kicker-auth tenants alone.
    if (config.tenant.features.includes('kicker-auth')) {
      const { expireKickerCookie } = await import('../features/login/kickerCookie');
      expireKickerCookie(config.tenant.login.kickerAuth?.cookieName ?? 'kickeruser', config.basePath);
    }
    if (options.timedOut) {
      notifyHostFrame('sessionTimedOut', config.tenant.embedding.parentOrigins);
      if (config.tenant.embedding.isEmbedded) return store.set(authStateAtom, { sessionHasTimedOut: true });
    }
    const after = await leave;
    // Its file did not load (a tab whose build has gone): the page loaded again has no session,
    // and its access gate sends the visitor on the same way.
    if (!after) return window.location.reload();
    after.leaveAfterLogout(config, options);
  }

  const services: PortalServices = { config, api, logout };
  createRoot(document.getElementById('root')!, {
    onCaughtError: reportCaught,
    onUncaughtError: reportCaught,
  }).render(
    <StrictMode>
      <JotaiProvider store={store}>
        <TranslationProvider translator={i18n}>
          <PortalContext.Provider value={services}>
            <FeatureRoutesProvider value={featureRoutesOf(config.tenant)}>
              <BrowserRouter basename={config.basePath.replace(/\/$/, '') || '/'}>
                <PortalRoutes />
              </BrowserRouter>
            </FeatureRoutesProvider>
          </PortalContext.Provider>
        </TranslationProvider>
      </JotaiProvider>
    </StrictMode>,
  );
}

function storageOrUndefined(get: () => Storage): Storage | undefined {
  try {
    return get();
  } catch {
    // §8: storage that cannot be reached (blocked third-party storage) is ignored.
    return undefined;
  }
}

// A boot that fails (the text file of the language cannot be loaded) leaves words in both
// languages, not a blank page: no text table is at hand to say it otherwise.
boot().catch((error) => {
  document.getElementById('root')!.textContent =
    'Laden fehlgeschlagen, bitte neu laden. / Loading failed, please reload.';
  throw error;
});
