/**
 * Renders screens of a built page in a locale and returns what a reader meets on each: the text and
 * the words in attributes (labels, placeholders, titles). Imported by tests/i18n/pseudoLocale.test.tsx
 * once it has put a jsdom window in place, so React starts in a browser-like global.
 */
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createStore, Provider } from 'jotai';
import { MemoryRouter } from 'react-router';
import { createI18n } from '../../engine/core/i18n';
import { PortalContext, type PortalServices } from '../../engine/core/PortalContext';
import { TranslationProvider } from '../../engine/core/translation';
import type { PortalConfig } from '../../engine/domain/portalConfig';
import ContactScreen from '../../engine/features/contact/ContactScreen';
import FaqScreen from '../../engine/features/faq/FaqScreen';
import LoginScreen from '../../engine/features/login/LoginScreen';

const SCREENS: Record<string, () => ReactNode> = {
  login: () => <LoginScreen />,
  contact: () => <ContactScreen />,
  faq: () => <FaqScreen />,
};

function shownText(page: HTMLElement): string {
  const attributes = [...page.querySelectorAll('*')].flatMap((element) =>
    ['aria-label', 'placeholder', 'title', 'alt'].map((name) => element.getAttribute(name) ?? ''),
  );
  return [page.textContent ?? '', ...attributes].join('\n');
}

export async function renderScreens(config: PortalConfig, locale: string): Promise<Record<string, string>> {
  const i18n = await createI18n(config, locale);
  const services: PortalServices = {
    config,
    // The FAQ's one call, answered with the entries the tenant file holds (no order system here).
    api: {
      get: async (path: string) => (path === '/faq' ? { entries: [] } : {}),
      post: async () => ({}),
    } as never,
    logout: async () => undefined,
  };
  const shown: Record<string, string> = {};
  for (const [name, screen] of Object.entries(SCREENS)) {
    const container = document.createElement('div');
    document.body.appendChild(container);
    const root = createRoot(container);
    await act(async () => {
      root.render(
        <Provider store={createStore()}>
          <TranslationProvider translator={i18n}>
            <PortalContext.Provider value={services}>
              <MemoryRouter>{screen()}</MemoryRouter>
            </PortalContext.Provider>
          </TranslationProvider>
        </Provider>,
      );
    });
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    shown[name] = shownText(container);
    act(() => root.unmount());
    container.remove();
  }
  return shown;
}
