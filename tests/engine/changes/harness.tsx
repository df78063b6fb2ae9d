/**
 * Rendering the account change screens in jsdom with a fake API (the way
 * tests/engine/offers/flowScreens.test.tsx renders the offer flows). The page carries a link to
 * /orders so tests can leave it the way a subscriber does (the menu, a header link).
 */
import { existsSync, readFileSync } from 'node:fs';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Provider, createStore } from 'jotai';
import { TranslationProvider } from '../../../engine/core/translation';
import { createMemoryRouter, Link, RouterProvider, useLocation } from 'react-router';
import { expect } from 'vitest';
import { ApiError } from '../../../engine/domain/apiError';
import { authStateAtom } from '../../../engine/core/authState';
import { createI18n } from '../../../engine/core/i18n';
import { PortalContext, type PortalServices } from '../../../engine/core/PortalContext';
import { FeatureRoutesProvider } from '../../../engine/core/featureRoutes';
import { featureRoutesOf } from '../../../engine/app/featureRoutes';
import type { PortalConfig } from '../../../engine/domain/portalConfig';

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

const texts = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const TABLES = [
  'core',
  'account',
  'features/holiday-service',
  'features/payment-method-change',
  'features/issue-complaint',
  'features/address-change',
  'features/opt-ins',
]
  .map((dir) => `engine/${dir}/texts.json`)
  .filter((file) => existsSync(file))
  .map(texts);
const merged = (locale: 'de-DE' | 'en-GB') => Object.assign({}, ...TABLES.map((table) => table[locale]));
export const en: Record<string, string> = merged('en-GB');
export const de: Record<string, string> = merged('de-DE');

export function config(tenant: Record<string, unknown> = {}): PortalConfig {
  return {
    basePath: '/',
    texts: { 'de-DE': de, 'en-GB': en },
    tenant: {
      id: 'acme',
      name: 'Acme',
      defaultLocale: 'en-GB',
      locales: ['en-GB', 'de-DE'],
      features: [
        'holiday-redirect',
        'holiday-break',
        'payment-method-change',
        'issue-complaint',
        'address-change',
        'opt-ins',
        'contact-form',
      ],
      embedding: { isEmbedded: false, showLangSelector: false, hideNavigation: false, parentOrigins: [] },
      login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
      contact: { fallbackEmail: 'help@acme.example', fallbackPhone: '+49 30 123' },
      buttons: { hiddenActions: [] },
      salutations: {
        options: [
          {
            code: '0002',
            title: { 'de-DE': 'Herr', 'en-GB': 'Mr' },
            isUserSelectable: true,
            isCompany: false,
          },
          {
            code: '0001',
            title: { 'de-DE': 'Frau', 'en-GB': 'Ms' },
            isUserSelectable: true,
            isCompany: false,
          },
          {
            code: '0003',
            title: { 'de-DE': 'Firma', 'en-GB': 'Company' },
            isUserSelectable: true,
            isCompany: true,
          },
        ],
      },
      addressChange: {
        allowNameChange: false,
        allowCountryChange: false,
        allowEmailChange: true,
        allowPhoneChange: false,
        allowDateOfBirthChange: false,
        timedChanges: true,
      },
      optIns: {
        types: [
          {
            type: 'NEWSLETTER',
            description: { 'de-DE': 'Newsletter per E-Mail', 'en-GB': 'Newsletter by e-mail' },
          },
        ],
        widget: { providers: [] },
      },
      publicationBlacklists: {},
      ...tenant,
    } as never,
  };
}

type Handler = unknown | ((body: unknown) => unknown);
export interface FakeApi {
  get: Record<string, Handler>;
  post: Record<string, Handler>;
  calls: Array<{ method: string; path: string; body?: unknown }>;
}

export function fakeApi(get: Record<string, Handler> = {}, post: Record<string, Handler> = {}): FakeApi {
  return { get, post, calls: [] };
}

function answer(table: Record<string, Handler>, path: string, body?: unknown): Promise<unknown> {
  if (!(path in table)) return Promise.reject(new ApiError(404, 'not_found', `no fake for ${path}`));
  const handler = table[path];
  try {
    const value = typeof handler === 'function' ? (handler as (b: unknown) => unknown)(body) : handler;
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
export function cleanUp() {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
}

export async function settle() {
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
}

export async function render(
  element: ReactNode,
  {
    api,
    path,
    route,
    portal = config(),
    locale = 'en-GB',
  }: { api: FakeApi; path: string; route: string; portal?: PortalConfig; locale?: 'en-GB' | 'de-DE' },
) {
  const i18n = await createI18n(portal, locale);
  const store = createStore();
  store.set(authStateAtom, {
    user: { id: 'u1', email: 'u@acme.example' },
    accessToken: 't',
    loginSource: 'token',
    sessionHasTimedOut: false,
  });
  const services: PortalServices = {
    config: portal,
    api: {
      get: async (p: string) => {
        api.calls.push({ method: 'GET', path: p });
        return answer(api.get, p);
      },
      post: async (p: string, body?: unknown) => {
        api.calls.push({ method: 'POST', path: p, body });
        return answer(api.post, p, body);
      },
    } as never,
    logout: async () => undefined,
  };
  const router = createMemoryRouter(
    [
      {
        path: route,
        element: (
          <>
            {element}
            <Link to="/orders">Elsewhere</Link>
          </>
        ),
      },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [path] },
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
  return { page: container, router, store };
}

export const byText = (container: ParentNode, selector: string, text: string) =>
  [...container.querySelectorAll<HTMLElement>(selector)].find(
    (element) => element.textContent?.trim() === text,
  );

export async function click(element: HTMLElement | undefined | null) {
  if (!element) throw new Error('click: the element to click is not on the screen');
  await act(async () => element.click());
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
