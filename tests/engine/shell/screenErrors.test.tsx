// @vitest-environment jsdom
/**
 * A failing screen (engine/core/ScreenErrorBoundary.tsx) and the client error reports
 * (engine/core/errorReporting.ts, engine/core/clientErrorSender.ts; portal-core.md §9
 * "Error-reporting sample rate 0.25"): the screen's place says what failed in the screen's
 * language, a script file that did not load asks for a reload, another path clears the failure;
 * reports are a sample, each error once, never throwing, sent without the session's token and with
 * the XSRF header.
 */
import { act } from 'react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScreenErrorBoundary } from '../../../engine/core/ScreenErrorBoundary';
import { createErrorReporter } from '../../../engine/core/errorReporting';
import { sendClientErrorReport } from '../../../engine/core/clientErrorSender';
import { ERROR_REPORT_SAMPLE_RATE, type ClientErrorReport } from '../../../engine/domain/clientErrors';
import { cleanUp, engineTexts, portalConfig, render } from '../../support/renderScreen';

const TEXTS = engineTexts(['core']);

/** A screen that fails on `failOn` (any other path shows "the overview"). */
function Screen({ error, failOn = '/faq' }: { error: unknown; failOn?: string }) {
  if (useLocation().pathname === failOn) throw error;
  return <p>the overview</p>;
}

const page = (error: unknown, failOn?: string) => (
  <ScreenErrorBoundary>
    <Screen error={error} failOn={failOn} />
  </ScreenErrorBoundary>
);

describe('a failing screen', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    cleanUp();
    vi.restoreAllMocks();
  });

  for (const locale of ['en-GB', 'de-DE'] as const) {
    it(`says so in its place and offers a reload and the overview (${locale})`, async () => {
      const { page: shown } = await render(page(new TypeError('x is undefined')), {
        path: '/faq',
        portal: portalConfig(['core']),
        locale,
      });
      const notice = shown.querySelector('[role="alert"]')!;
      expect(notice.querySelector('h1')!.textContent).toBe(TEXTS[locale]['shell.errorTitle']);
      expect(notice.textContent).toContain(TEXTS[locale]['shell.screenFailedText']);
      expect(notice.querySelector('button')!.textContent).toBe(TEXTS[locale]['shell.reloadPage']);
      expect(notice.querySelector('a')!.textContent).toBe(TEXTS[locale]['shell.toOverview']);
    });
  }

  it('asks for a reload when a script file did not load', async () => {
    const stale = new TypeError('Failed to fetch dynamically imported module: /assets/FaqScreen-abc.js');
    const { page: shown } = await render(page(stale), { path: '/faq', portal: portalConfig(['core']) });
    expect(shown.querySelector('h1')!.textContent).toBe(TEXTS['en-GB']['shell.staleBuildTitle']);
    expect(shown.textContent).toContain(TEXTS['en-GB']['shell.staleBuildText']);
    expect(shown.querySelector('[role="alert"] a')).toBeNull();
  });

  it('is cleared by going elsewhere', async () => {
    const { page: shown } = await render(page(new Error('boom')), {
      path: '/faq',
      portal: portalConfig(['core']),
    });
    expect(shown.querySelector('[role="alert"]')).not.toBeNull();
    // The page's own link to /orders (tests/support/renderScreen.tsx), as a menu item would be.
    const elsewhere = [...shown.querySelectorAll('a')].find((a) => a.textContent === 'Elsewhere')!;
    await act(async () => elsewhere.click());
    expect(shown.querySelector('[role="alert"]')).toBeNull();
    expect(shown.textContent).toContain('the overview');
  });

  it('offers no link to the overview on the overview itself', async () => {
    const { page: shown } = await render(page(new Error('boom'), '/orders'), {
      path: '/orders',
      portal: portalConfig(['core']),
    });
    expect(shown.querySelector('[role="alert"] button')).not.toBeNull();
    expect(shown.querySelector('[role="alert"] a')).toBeNull();
  });

  it('puts its fallback in the place of a part that failed (the menu)', async () => {
    const { page: shown } = await render(
      <ScreenErrorBoundary fallback={<div className="placeholder" />}>
        <Screen error={new Error('menu')} failOn="/" />
      </ScreenErrorBoundary>,
      { path: '/', portal: portalConfig(['core']) },
    );
    expect(shown.querySelector('[role="alert"]')).toBeNull();
    expect(shown.querySelector('.placeholder')).not.toBeNull();
  });
});

describe('client error reports', () => {
  afterEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    vi.unstubAllGlobals();
  });

  function reporter(randoms: number[]) {
    const sent: ClientErrorReport[] = [];
    const report = createErrorReporter({
      basePath: '/t/acme/',
      pathname: () => '/subscriptions/4000123456?p=token',
      random: () => randoms.shift() ?? 0,
      send: async (_base, body) => sent.push(body),
    });
    return { report, sent };
  }

  it('send a sample: an error drawn at or above the rate is not sent', () => {
    const { report, sent } = reporter([ERROR_REPORT_SAMPLE_RATE, ERROR_REPORT_SAMPLE_RATE - 0.01]);
    report(new Error('first'), 'render');
    report(new Error('second'), 'render');
    expect(sent.map((body) => body.message)).toEqual(['second']);
  });

  it('send each error once per page, scrubbed', () => {
    const { report, sent } = reporter([0, 0, 0]);
    report(new Error('order 4000123456 not found'), 'rejection');
    report(new Error('order 4000123456 not found'), 'rejection');
    expect(sent).toEqual([
      expect.objectContaining({
        kind: 'rejection',
        message: 'order [number] not found',
        path: '/subscriptions/:param',
      }),
    ]);
  });

  it('stop after ten distinct errors on one page', () => {
    const { report, sent } = reporter(Array(20).fill(0));
    for (let i = 0; i < 15; i += 1) report(new Error(`error ${i}`), 'error');
    expect(sent).toHaveLength(10);
  });

  it('never throw, whatever was thrown', () => {
    const { report, sent } = reporter(Array(5).fill(0));
    const odd = new Error('odd');
    Object.defineProperty(odd, 'message', {
      get: () => {
        throw new Error('no message');
      },
    });
    expect(() => report(odd, 'error')).not.toThrow();
    expect(() => report(Object.create(null), 'rejection')).not.toThrow();
    expect(sent).toEqual([expect.objectContaining({ kind: 'rejection', message: 'object' })]);
  });

  it('go to the tenant’s API with the XSRF header, without the session token, kept alive', async () => {
    document.cookie = 'XSRF-TOKEN=xsrf-value';
    const fetches: Array<[string, RequestInit]> = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      fetches.push([url, init]);
      return new Response(null, { status: 204 });
    });
    await sendClientErrorReport('/t/acme/', { kind: 'render', name: 'Error', message: 'x', path: '/faq' });
    const [[url, init]] = fetches;
    expect(url).toBe('/t/acme/api/client-errors');
    expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'same-origin' });
    expect(init.headers).toEqual({ 'content-type': 'application/json', 'x-xsrf-token': 'xsrf-value' });
    expect(JSON.parse(String(init.body))).toEqual({
      kind: 'render',
      name: 'Error',
      message: 'x',
      path: '/faq',
    });
  });
});
