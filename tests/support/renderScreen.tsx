/**
 * The one way tests render a screen in jsdom: the portal's providers as the app shell sets them up
 * (jotai store, translations, portal services, feature routes, a memory router), a fake API that
 * records its calls, and the few gestures a subscriber makes (click, type, choose). Suites keep only
 * their fixtures: which text tables and which tenant settings a screen needs (`portalConfig`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Provider, createStore } from 'jotai';
import { createMemoryRouter, Link, parsePath, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { TranslationProvider } from '../../engine/core/translation';
import { ApiError } from '../../engine/domain/apiError';
import { authStateAtom, type LoginSource } from '../../engine/core/authState';
import { createI18n } from '../../engine/core/i18n';
import { PortalContext, type PortalServices } from '../../engine/core/PortalContext';
import { FeatureRoutesProvider } from '../../engine/core/featureRoutes';
import { featureRoutesOf } from '../../engine/app/featureRoutes';
import type { PortalConfig } from '../../engine/domain/portalConfig';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** jsdom has no modal dialogs. */
export function polyfillDialogs() {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
}

type TextLocale = 'de-DE' | 'en-GB';

/** The texts of the named engine folders (`core`, `account`, `features/<id>`), merged, per locale. */
export function engineTexts(folders: readonly string[]): Record<TextLocale, Record<string, string>> {
  const tables = folders
    .map((folder) => `engine/${folder}/texts.json`)
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')));
  const merged = (locale: TextLocale) => Object.assign({}, ...tables.map((table) => table[locale]));
  return { 'de-DE': merged('de-DE'), 'en-GB': merged('en-GB') };
}

/**
 * A page's configuration for a made-up tenant "acme" (en-GB first, de-DE too) with the texts of
 * `folders` and the suite's tenant settings laid over the few every screen reads.
 */
export function portalConfig(folders: readonly string[], tenant: Record<string, unknown> = {}): PortalConfig {
  return {
    basePath: '/',
    texts: engineTexts(folders),
    tenant: {
      id: 'acme',
      name: 'Acme',
      defaultLocale: 'en-GB',
      locales: ['en-GB', 'de-DE'],
      features: [],
      embedding: { isEmbedded: false, showLangSelector: false, hideNavigation: false, parentOrigins: [] },
      login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
      contact: { fallbackEmail: 'help@acme.example', fallbackPhone: '+49 30 123' },
      buttons: { hiddenActions: [] },
      ...tenant,
    } as never,
  };
}

/** An answer: a value, an error to throw, or a function of the body that gives one. */
type Handler = unknown | ((body: unknown) => unknown);
export interface FakeApi {
  get: Record<string, Handler>;
  post: Record<string, Handler>;
  /** Answers what the tables do not name; without it such a call gets 404 not_found. */
  otherwise?: (method: 'GET' | 'POST', path: string, body?: unknown) => unknown;
  calls: Array<{ method: string; path: string; body?: unknown }>;
}

/** A fake API that answers by path and records every call. */
export function fakeApi(
  get: Record<string, Handler> = {},
  post: Record<string, Handler> = {},
  otherwise?: FakeApi['otherwise'],
): FakeApi {
  return { get, post, otherwise, calls: [] };
}

function answer(api: FakeApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const table = method === 'GET' ? api.get : api.post;
  try {
    let value: unknown;
    if (path in table) {
      const handler = table[path];
      value = typeof handler === 'function' ? (handler as (b: unknown) => unknown)(body) : handler;
    } else if (api.otherwise) value = api.otherwise(method, path, body);
    else return Promise.reject(new ApiError(404, 'not_found', `no fake for ${path}`));
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Where a screen navigated to. */
function Elsewhere() {
  const location = useLocation();
  return <p data-testid="elsewhere">{`${location.pathname}${location.search}`}</p>;
}

let root: Root | undefined;

/** Unmounts the screen and empties the page; call it in afterEach. */
export function cleanUp() {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
}

/** Lets pending answers and effects run. */
export async function settle() {
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
}

/**
 * Settles until `holds()` is true, for a part of the screen loaded on demand (`React.lazy`): its
 * module's import takes as long as a busy machine makes it, not one fixed pause. Fails after
 * `timeoutMs` with what the page shows.
 */
export async function settleUntil(holds: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!holds()) {
    if (Date.now() > deadline)
      throw new Error(`the screen did not settle: it shows "${document.body.textContent ?? ''}"`);
    await settle();
  }
}

export interface RenderOptions {
  api?: FakeApi;
  /** The address the screen opens at. */
  path: string;
  /** The history entry's state at that address (what a reload finds there). */
  state?: unknown;
  /** The route pattern the screen is mounted at; without one it answers every path. */
  route?: string;
  portal: PortalConfig;
  locale?: TextLocale;
  /** How the visitor signed in; null: not signed in. */
  loginSource?: LoginSource | null;
}

/**
 * Renders `element` at `path` with the portal's providers. Any other path the screen navigates to
 * shows "elsewhere" with that path, and the page carries a link to /orders so a test can leave the
 * way a subscriber does (the menu, a header link).
 */
export async function render(
  element: ReactNode,
  { api = fakeApi(), path, state, route, portal, locale = 'en-GB', loginSource = 'token' }: RenderOptions,
) {
  const i18n = await createI18n(portal, locale);
  const store = createStore();
  if (loginSource)
    store.set(authStateAtom, {
      user: { id: 'u1', email: 'u@acme.example' },
      accessToken: 't',
      loginSource,
      sessionHasTimedOut: false,
    });
  const services: PortalServices = {
    config: portal,
    api: {
      get: async (p: string) => {
        api.calls.push({ method: 'GET', path: p });
        return answer(api, 'GET', p);
      },
      post: async (p: string, body?: unknown) => {
        api.calls.push({ method: 'POST', path: p, body });
        return answer(api, 'POST', p, body);
      },
      // Answered from the post table under `DELETE <path>`.
      delete: async (p: string) => {
        api.calls.push({ method: 'DELETE', path: p });
        return answer(api, 'POST', `DELETE ${p}`);
      },
    } as never,
    logout: async () => undefined,
  };
  const screen = (
    <>
      {element}
      <Link to="/orders">Elsewhere</Link>
    </>
  );
  const router = createMemoryRouter(
    route
      ? [
          { path: route, element: screen },
          { path: '*', element: <Elsewhere /> },
        ]
      : [{ path: '*', element: screen }],
    { initialEntries: [state === undefined ? path : { ...parsePath(path), state }] },
  );
  const container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(
      <Provider store={store}>
        <TranslationProvider translator={i18n}>
          <PortalContext.Provider value={services}>
            <FeatureRoutesProvider value={featureRoutesOf(services.config.tenant)}>
              <RouterProvider router={router} />
            </FeatureRoutesProvider>
          </PortalContext.Provider>
        </TranslationProvider>
      </Provider>,
    );
  });
  await settle();
  return { page: container, router, store, i18n };
}

export const byText = (container: ParentNode, selector: string, text: string) =>
  [...container.querySelectorAll<HTMLElement>(selector)].find(
    (element) => element.textContent?.trim() === text,
  );

export async function click(element: Element | undefined | null) {
  if (!element) throw new Error('click: the element to click is not on the screen');
  await act(async () => (element as HTMLElement).click());
  await settle();
}

export async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(select, value);
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle();
}

export async function type(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  await act(async () => {
    const proto =
      field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle();
}

/** The control a label names (its text as shown, a required field's star included). */
export const labelled = <T extends HTMLElement>(container: ParentNode, label: string) => {
  const element = byText(container, 'label', label) as HTMLLabelElement | undefined;
  expect(element, `label ${label}`).toBeDefined();
  if (!element!.htmlFor) return element!.querySelector('input') as unknown as T;
  return (container as Element).ownerDocument!.getElementById(element!.htmlFor) as T;
};

/** The open dialog (the last one opened). */
export const openDialog = (container: ParentNode) =>
  [...container.querySelectorAll<HTMLDialogElement>('dialog[open]')].pop();
