// @vitest-environment jsdom
/**
 * A screen's resource is loading from the moment `reload()` is called: no render between the call
 * and the load shows the old data as ready, so a change's note is never drawn beside the state it
 * changed (the holiday service's "cancelled" beside its cancel button).
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { PortalContext, type PortalServices } from '../../../engine/core/PortalContext';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import { createTranslator, TranslationProvider } from '../../../engine/core/translation';
import { useResource, type Resource } from '../../../engine/account/resource';
import { ApiError } from '../../../engine/domain/apiError';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const config = {
  basePath: '/',
  texts: { 'de-DE': {}, 'en-GB': {} },
  tenant: { id: 'technikwelt', locales: ['de-DE', 'en-GB'], defaultLocale: 'de-DE', features: [] },
} as unknown as PortalConfig;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

it('is loading, with the previous data, from the call of reload on', async () => {
  let answer = 0;
  const api = { get: async () => ++answer };
  const seen: string[] = [];
  let resource: Resource<number> | undefined;
  function Screen() {
    resource = useResource('counter', (client) => client.get<number>('/counter'));
    const { state } = resource;
    seen.push(
      state.status === 'ready'
        ? `ready ${state.data}`
        : `${state.status} ${state.status === 'loading' ? state.previous : ''}`,
    );
    return null;
  }
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  const translator = createTranslator({
    locale: 'de-DE',
    fallbackLocale: 'en-GB',
    texts: { 'de-DE': {}, 'en-GB': {} },
  });
  await act(async () =>
    root!.render(
      <TranslationProvider translator={translator}>
        <PortalContext.Provider value={{ config, api } as unknown as PortalServices}>
          <Screen />
        </PortalContext.Provider>
      </TranslationProvider>,
    ),
  );
  expect(seen.at(-1)).toBe('ready 1');

  seen.length = 0;
  await act(async () => resource!.reload());
  expect(seen[0]).toBe('loading 1');
  expect(seen).not.toContain('ready 1');
  expect(seen.at(-1)).toBe('ready 2');
});

it('tells a 404 (nothing of that name on the account) from any other failure', async () => {
  const failures = [new ApiError(404, 'not_found', 'There is no such subscription on your account.')];
  failures.push(new ApiError(500, 'internal', 'Something went wrong.'));
  const api = {
    get: async () => {
      throw failures.shift();
    },
  };
  let resource: Resource<number> | undefined;
  function Screen() {
    resource = useResource('missing', (client) => client.get<number>('/subscriptions/nope'));
    return null;
  }
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  const translator = createTranslator({
    locale: 'de-DE',
    fallbackLocale: 'en-GB',
    texts: { 'de-DE': {}, 'en-GB': {} },
  });
  await act(async () =>
    root!.render(
      <TranslationProvider translator={translator}>
        <PortalContext.Provider value={{ config, api } as unknown as PortalServices}>
          <Screen />
        </PortalContext.Provider>
      </TranslationProvider>,
    ),
  );
  expect(resource!.state).toEqual({ status: 'failed', notFound: true });
  await act(async () => resource!.reload());
  expect(resource!.state).toEqual({ status: 'failed', notFound: false });
});
