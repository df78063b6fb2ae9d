// @vitest-environment jsdom
/**
 * A failing screen (engine/core/ScreenErrorBoundary.tsx) and the client error reports
 * (engine/core/errorReporting.ts, portal-core.md §9 "Error-reporting sample rate 0.25"): the screen's
 * place says what failed in the screen's language, a file of an older build asks for a reload,
 * another path clears the failure; reports are a sample, each error once, sent without the
 * session's token and with the XSRF header.
 */
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScreenErrorBoundary } from '../../../engine/core/ScreenErrorBoundary';
import { createErrorReporter } from '../../../engine/core/errorReporting';
import { ERROR_REPORT_SAMPLE_RATE } from '../../../engine/domain/clientErrors';
import { cleanUp, engineTexts, portalConfig, render } from '../../support/renderScreen';
import { act } from 'react';

const TEXTS = engineTexts(['core']);

function Failing({ error }: { error: unknown }): never {
  throw error;
}

/** A screen that fails until another path is chosen: the boundary's reset key. */
function Page({ error }: { error: unknown }) {
  const [path, setPath] = useState('/faq');
  return (
    <>
      <button type="button" onClick={() => setPath('/orders')}>
        elsewhere
      </button>
      <ScreenErrorBoundary resetKey={path}>
        {path === '/faq' ? <Failing error={error} /> : <p>the overview</p>}
      </ScreenErrorBoundary>
    </>
  );
}

describe('a failing screen', () => {
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    cleanUp();
    vi.restoreAllMocks();
  });

  for (const locale of ['en-GB', 'de-DE'] as const) {
    it(`says so in its place and offers a reload and the overview (${locale})`, async () => {
      const { page } = await render(<Page error={new TypeError('x is undefined')} />, {
        path: '/faq',
        portal: portalConfig(['core']),
        locale,
      });
      const notice = page.querySelector('[role="alert"]')!;
      expect(notice.querySelector('h1')!.textContent).toBe(TEXTS[locale]['shell.errorTitle']);
      expect(notice.textContent).toContain(TEXTS[locale]['shell.screenFailedText']);
      expect(notice.querySelector('button')!.textContent).toBe(TEXTS[locale]['shell.reloadPage']);
      expect(notice.querySelector('a')!.textContent).toBe(TEXTS[locale]['shell.toOverview']);
    });
  }

  it('asks for a reload when a file of an older build did not load', async () => {
    const stale = new TypeError('Failed to fetch dynamically imported module: /assets/FaqScreen-abc.js');
    const { page } = await render(<Page error={stale} />, { path: '/faq', portal: portalConfig(['core']) });
    expect(page.querySelector('h1')!.textContent).toBe(TEXTS['en-GB']['shell.staleBuildTitle']);
    expect(page.textContent).toContain(TEXTS['en-GB']['shell.staleBuildText']);
    expect(page.querySelector('[role="alert"] a')).toBeNull();
  });

  it('is cleared by going elsewhere', async () => {
    const { page } = await render(<Page error={new Error('boom')} />, {
      path: '/faq',
      portal: portalConfig(['core']),
    });
    expect(page.querySelector('[role="alert"]')).not.toBeNull();
    await act(async () => page.querySelector('button')!.click());
    expect(page.querySelector('[role="alert"]')).toBeNull();
    expect(page.textContent).toContain('the overview');
  });

  it('leaves nothing in a part that may go missing (the menu)', async () => {
    const { page } = await render(
      <ScreenErrorBoundary resetKey="/" fallback="nothing">
        <Failing error={new Error('menu')} />
      </ScreenErrorBoundary>,
      { path: '/', portal: portalConfig(['core']) },
    );
    expect(page.querySelector('[role="alert"]')).toBeNull();
  });
});

describe('client error reports', () => {
  afterEach(() => {
    document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  function reporter(randoms: number[]) {
    const sent: Array<{ url: string; init: RequestInit }> = [];
    const report = createErrorReporter({
      basePath: '/t/acme/',
      pathname: () => '/subscriptions/4000123456?p=token',
      random: () => randoms.shift() ?? 0,
      send: async (url, init) => sent.push({ url, init }),
    });
    return { report, sent };
  }

  it('send a sample: an error drawn at or above the rate is not sent', () => {
    const { report, sent } = reporter([ERROR_REPORT_SAMPLE_RATE, ERROR_REPORT_SAMPLE_RATE - 0.01]);
    report(new Error('first'), 'render');
    report(new Error('second'), 'render');
    expect(sent.map(({ init }) => JSON.parse(String(init.body)).message)).toEqual(['second']);
  });

  it('send each error once per page, scrubbed, with the XSRF header and without the session token', () => {
    document.cookie = 'XSRF-TOKEN=xsrf-value';
    const { report, sent } = reporter([0, 0, 0]);
    report(new Error('order 4000123456 not found'), 'rejection');
    report(new Error('order 4000123456 not found'), 'rejection');
    expect(sent).toHaveLength(1);
    const [{ url, init }] = sent;
    expect(url).toBe('/t/acme/api/client-errors');
    expect(init.method).toBe('POST');
    expect(init.keepalive).toBe(true);
    expect(init.headers).toEqual({ 'content-type': 'application/json', 'x-xsrf-token': 'xsrf-value' });
    expect(JSON.parse(String(init.body))).toMatchObject({
      kind: 'rejection',
      message: 'order [number] not found',
      path: '/subscriptions/:param',
    });
  });

  it('stop after ten distinct errors on one page', () => {
    const { report, sent } = reporter(Array(20).fill(0));
    for (let i = 0; i < 15; i += 1) report(new Error(`error ${i}`), 'error');
    expect(sent).toHaveLength(10);
  });
});
