// @vitest-environment jsdom
/**
 * Data the server words in the screen's language follows the flag without a reload: a
 * screen's resource and the shared lists are fetched again, quietly — what the screen shows (a form
 * with what was typed) stays mounted until the new words arrive, and a failed quiet fetch keeps the
 * old words instead of an error.
 */
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Provider, createStore } from 'jotai';
import { PortalContext, type PortalServices } from '../../engine/core/PortalContext';
import type { PortalConfig } from '../../engine/domain/portalConfig';
import { createTranslator, TranslationProvider, type Translator } from '../../engine/core/translation';
import { useSubscriptions } from '../../engine/core/subscriptionsStore';
import { usePendingOrders } from '../../engine/account/ordersData';
import { useResource } from '../../engine/account/resource';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NAMES: Record<string, Record<string, string>> = {
  'de-DE': {
    subscription: 'Technikwelt Digital – E-Paper',
    pending: 'Technikwelt Magazin – Probeabo 4 Wochen',
    page: 'Technikwelt Sonderhefte Leserclub',
  },
  'en-GB': {
    subscription: 'Technikwelt Digital – Digital edition',
    pending: 'Technikwelt Magazin – 4-week trial',
    page: "Technikwelt Sonderhefte Readers' Club",
  },
};

const config = {
  basePath: '/',
  texts: { 'de-DE': {}, 'en-GB': {} },
  tenant: {
    id: 'technikwelt',
    locales: ['de-DE', 'en-GB'],
    defaultLocale: 'de-DE',
    features: ['pending-orders'],
  },
} as unknown as PortalConfig;

/** A fake API that answers in the language of the call, as the server does (Accept-Language). */
function fakeApi(i18n: Translator, calls: string[], failing: { now: boolean }) {
  return {
    get: async (path: string) => {
      calls.push(`${path} ${i18n.language}`);
      if (failing.now) throw new Error('offline');
      const names = NAMES[i18n.language];
      if (path === '/subscriptions') return [{ id: 'S1', displayName: names.subscription }];
      if (path === '/pending-orders') return [{ id: 'P1', title: names.pending }];
      if (path === '/subscriptions/S2') return { id: 'S2', displayName: names.page };
      throw new Error(`unexpected ${path}`);
    },
  };
}

function Screen() {
  const { state } = useSubscriptions();
  const pending = usePendingOrders();
  const page = useResource('/subscriptions/S2', (api) =>
    api.get<{ displayName: string }>('/subscriptions/S2'),
  );
  const [typed, setTyped] = useState('');
  if (page.state.status === 'loading') return <p>loading</p>;
  if (page.state.status === 'failed') return <p>failed</p>;
  return (
    <form>
      <h1>{page.state.data.displayName}</h1>
      <ul>
        {state.subscriptions.map((s) => (
          <li key={s.id}>{s.displayName}</li>
        ))}
        {pending.state.status === 'ready' && pending.state.data.map((p) => <li key={p.id}>{p.title}</li>)}
      </ul>
      <input aria-label="note" value={typed} onChange={(event) => setTyped(event.target.value)} />
    </form>
  );
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

async function settle() {
  for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

async function render() {
  const i18n = createTranslator({
    locale: 'de-DE',
    fallbackLocale: 'en-GB',
    texts: { 'de-DE': {}, 'en-GB': {} },
  });
  const calls: string[] = [];
  const failing = { now: false };
  const services = {
    config,
    api: fakeApi(i18n, calls, failing),
    logout: async () => undefined,
  } as unknown as PortalServices;
  const store = createStore();
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () =>
    root!.render(
      <Provider store={store}>
        <TranslationProvider translator={i18n}>
          <PortalContext.Provider value={services}>
            <Screen />
          </PortalContext.Provider>
        </TranslationProvider>
      </Provider>,
    ),
  );
  await settle();
  return { i18n, calls, failing, container };
}

describe('names follow the flag without a reload', () => {
  it('fetches the screen and the shared lists again in the new language and shows their new words', async () => {
    const { i18n, calls, container } = await render();
    expect(container.textContent).toContain(NAMES['de-DE'].page);
    expect(container.textContent).toContain(NAMES['de-DE'].subscription);
    expect(container.textContent).toContain(NAMES['de-DE'].pending);
    const input = container.querySelector('input')!;
    await act(async () => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      setValue.call(input, 'halb getippt');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });

    await act(async () => i18n.changeLanguage('en-GB'));
    await settle();
    for (const name of Object.values(NAMES['en-GB'])) expect(container.textContent).toContain(name);
    for (const name of Object.values(NAMES['de-DE'])) expect(container.textContent).not.toContain(name);
    // The form stayed on screen: what was typed is still there, in the same field.
    expect(container.querySelector('input')).toBe(input);
    expect(input.value).toBe('halb getippt');
    // Each list once more, in English, however many components read it.
    expect(calls.filter((call) => call.endsWith('en-GB')).sort()).toEqual([
      '/pending-orders en-GB',
      '/subscriptions en-GB',
      '/subscriptions/S2 en-GB',
    ]);
  });

  it('keeps the old words when the quiet fetch fails, rather than an error in place of the screen', async () => {
    const { i18n, failing, container } = await render();
    failing.now = true;
    await act(async () => i18n.changeLanguage('en-GB'));
    await settle();
    expect(container.textContent).toContain(NAMES['de-DE'].page);
    expect(container.textContent).toContain(NAMES['de-DE'].subscription);
    expect(container.textContent).not.toContain('failed');
  });
});
