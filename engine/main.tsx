import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { readPortalConfig } from './core/portalConfig';
import { createI18n, initialLocale } from './core/i18n';
import { createApiClient } from './core/apiClient';
import { authStateAtom, clearPersistedLogin, restoreAuthState } from './core/authState';
import { notifyHostFrame } from './core/hostFrame';
import { PortalContext, type PortalServices } from './core/PortalContext';
import { resetSubscriptions, subscriptionsAtom } from './core/subscriptionsStore';
import { buildRoutes } from './core/router';
import { expireKickerCookie } from './features/login/kickerCookie';
import './ui/styles.css';

async function boot() {
  const config = readPortalConfig();
  const i18n = await createI18n(config, initialLocale(config, window.location.search));
  document.documentElement.lang = i18n.language;
  i18n.on('languageChanged', (lng) => (document.documentElement.lang = lng));

  const store = createStore();
  store.set(authStateAtom, restoreAuthState());

  const router = createBrowserRouter(buildRoutes(config.tenant.features), {
    basename: config.basePath.replace(/\/$/, '') || '/',
  });

  const api = createApiClient({
    basePath: config.basePath,
    getAccessToken: () => store.get(authStateAtom).accessToken,
    // §2: any 401 other than on login logs the user out; it marks the timed-out state.
    onUnauthorized: () => void logout({ timedOut: true }),
  });

  async function logout(options: { timedOut?: boolean } = {}) {
    const { accessToken } = store.get(authStateAtom);
    if (accessToken && !options.timedOut) await api.post('/logout').catch(() => undefined);
    clearPersistedLogin();
    if (config.tenant.features.includes('kicker-auth')) expireKickerCookie(config.tenant.login.kickerAuth?.cookieName ?? 'kickeruser');
    // §4: log-out resets the auth state and every other store.
    store.set(authStateAtom, { sessionHasTimedOut: Boolean(options.timedOut) });
    store.set(subscriptionsAtom, resetSubscriptions);
    if (options.timedOut) notifyHostFrame('sessionTimedOut', config.tenant.embedding.parentOrigins);
    if (!options.timedOut || !config.tenant.embedding.isEmbedded) await router.navigate('/login');
  }

  const services: PortalServices = { config, api, logout };
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <JotaiProvider store={store}>
        <I18nextProvider i18n={i18n}>
          <PortalContext.Provider value={services}>
            <RouterProvider router={router} />
          </PortalContext.Provider>
        </I18nextProvider>
      </JotaiProvider>
    </StrictMode>,
  );
}

void boot();
