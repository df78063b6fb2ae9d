// @vitest-environment jsdom
/**
 * The widget screens in jsdom with a fake API (account-flows.md §2 "Email widget", "Opt-in widget",
 * §8): the opt-in checkbox only with opt-ins, the neutral answer, the disabled opt-in widget with the
 * fallback contact, and the voucher code only after the confirmation.
 */
import { act, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, fakeApi, portalConfig, render as renderScreen } from '../../support/renderScreen';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import { ApiError } from '../../../engine/domain/apiError';
import EmailWidgetScreen from '../../../engine/features/email-widget/EmailWidgetScreen';
import OptInWidgetScreen from '../../../engine/features/opt-in-widget/OptInWidgetScreen';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const WIDGET_TEXTS = ['core', 'account', 'features/email-widget', 'features/opt-in-widget'];
const PROVIDER = {
  code: 'messe',
  voucherCodeKey: 'M',
  title: { 'en-GB': 'Your fair voucher' },
  success: { 'en-GB': '<p>Enjoy!</p>' },
  disclaimer: { 'en-GB': '<p>I agree to offers by e-mail.</p>' },
};

function config(tenant: Record<string, unknown>): PortalConfig {
  return portalConfig(WIDGET_TEXTS, {
    features: ['email-widget', 'opt-ins'],
    emailWidget: { showRewards: true },
    salutations: { options: [{ code: '0001', title: { 'en-GB': 'Ms' } }] },
    optIns: { types: [], widget: { providers: [PROVIDER] } },
    ...tenant,
  });
}

afterEach(() => {
  cleanUp();
  window.sessionStorage.clear();
});

/** The widget screen at `url`, not signed in; `post` answers its calls, which are kept in order. */
async function render(
  element: ReactNode,
  portal: PortalConfig,
  url: string,
  post: (path: string, body: unknown) => unknown = () => ({}),
  get: (path: string) => unknown = () => undefined,
) {
  const calls: Array<{ path: string; body: unknown }> = [];
  const api = fakeApi({}, {}, (method, path, body) => {
    if (method === 'GET') return get(path);
    calls.push({ path, body });
    return post(path, body);
  });
  const { page } = await renderScreen(element, { api, path: url, portal, loginSource: null });
  return { container: page, calls };
}

const byLabel = (container: HTMLElement, text: string) => {
  const label = [...container.querySelectorAll('label')].find(
    (l) => l.textContent?.replace(' *', '').trim() === text,
  );
  return document.getElementById(label!.htmlFor) as HTMLInputElement;
};
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
const click = (element: Element) => act(async () => void (element as HTMLElement).click());
const button = (container: HTMLElement, text: string) =>
  [...container.querySelectorAll('button')].find((b) => b.textContent === text)!;

describe('e-mail widget screen', () => {
  it('offers the opt-in checkbox only when the tenant supports opt-ins', async () => {
    const withOptIns = await render(<EmailWidgetScreen />, config({}), '/email-widget');
    expect(withOptIns.container.textContent).toContain(
      'Yes, I would like to receive news and offers by e-mail.',
    );
    cleanUp();
    const without = await render(
      <EmailWidgetScreen />,
      config({ features: ['email-widget'] }),
      '/email-widget',
    );
    expect(without.container.querySelector('input[type=checkbox]')).toBeNull();
  });

  it('sends the form with the opt-in and shows the neutral answer, and keeps it after changing the details', async () => {
    const { container, calls } = await render(<EmailWidgetScreen />, config({}), '/email-widget', () => ({
      status: 'check_inbox',
    }));
    await act(async () => {
      type(byLabel(container, 'E-mail address'), 'anna@example.org');
      type(byLabel(container, 'Order number'), '4000000001');
      type(byLabel(container, 'Postcode'), '10115');
    });
    await click(container.querySelector('input[type=checkbox]')!);
    await click(button(container, 'Request my rewards'));
    expect(calls).toEqual([
      {
        path: '/link-email',
        body: {
          email: 'anna@example.org',
          orderNumber: '4000000001',
          zipcode: '10115',
          optIn: true,
          locale: 'en-GB',
        },
      },
    ]);
    expect(container.textContent).toContain('Please check your inbox');
    await click(button(container, 'Enter different details'));
    expect(container.querySelector('input[type=checkbox]')).not.toBeNull();
  });
});

describe('opt-in widget screen', () => {
  it('shows the disabled message with the fallback contact for an unknown provider', async () => {
    const { container } = await render(<OptInWidgetScreen />, config({}), '/opt-in-widget?provider=nobody');
    expect(container.querySelector('h1')?.textContent).toBe('This sign-up is not available');
    expect(container.textContent).toContain('help@acme.example');
    expect(container.textContent).toContain('+49 30 123');
  });

  it('says an empty pool before anyone types, and keeps the form when the pool has codes or cannot be asked', async () => {
    const pool = (codesLeft: boolean | Error) => (path: string) =>
      path === '/opt-in/providers/messe'
        ? codesLeft instanceof Error
          ? codesLeft
          : { provider: 'messe', codesLeft }
        : undefined;
    const empty = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe',
      undefined,
      pool(false),
    );
    await act(async () => undefined);
    expect(empty.container.querySelector('h1')?.textContent).toBe('Your fair voucher');
    expect(empty.container.textContent).toContain('all voucher codes have been handed out');
    expect(empty.container.textContent).toContain('+49 30 123');
    expect(empty.container.querySelector('form')).toBeNull();
    cleanUp();
    for (const answer of [true, new ApiError(503, 'unavailable', 'Try later.')]) {
      const open = await render(
        <OptInWidgetScreen />,
        config({}),
        '/opt-in-widget?provider=messe',
        undefined,
        pool(answer),
      );
      await act(async () => undefined);
      expect(open.container.querySelector('form')).not.toBeNull();
      cleanUp();
    }
  });

  it('keeps what was typed when the empty pool is known only afterwards, with the notice above', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const late = new Promise((resolve) => (answer = resolve));
    const { container } = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe',
      undefined,
      (path) => (path === '/opt-in/providers/messe' ? late : undefined),
    );
    await act(async () => type(byLabel(container, 'First name'), 'Mia'));
    await act(async () => answer({ provider: 'messe', codesLeft: false }));
    expect(container.textContent).toContain('all voucher codes have been handed out');
    expect(byLabel(container, 'First name').value).toBe('Mia');
  });

  it('says at the submit that the codes ran out meanwhile, and keeps what was typed', async () => {
    const { container } = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe',
      () => new ApiError(409, 'voucher_codes_exhausted', 'All codes are gone.'),
      () => ({ provider: 'messe', codesLeft: true }),
    );
    await act(async () => {
      const salutation = byLabel(container, 'Title') as unknown as HTMLSelectElement;
      salutation.value = '0001';
      salutation.dispatchEvent(new Event('change', { bubbles: true }));
      type(byLabel(container, 'First name'), 'Mia');
      type(byLabel(container, 'Last name'), 'Muster');
      type(byLabel(container, 'E-mail address'), 'mia@example.org');
    });
    await click(container.querySelector('input[type=checkbox]')!);
    await click(button(container, 'Sign up'));
    expect(container.textContent).toContain('all voucher codes have been handed out');
    expect(byLabel(container, 'First name').value).toBe('Mia');
    expect(byLabel(container, 'E-mail address').value).toBe('mia@example.org');
  });

  it('shows the voucher code only after the confirmation link’s button', async () => {
    const { container, calls } = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe&token=abc',
      () => ({ provider: 'messe', voucherCode: 'M-0001' }),
    );
    expect(container.textContent).not.toContain('M-0001');
    await click(button(container, 'Confirm sign-up'));
    expect(calls).toEqual([{ path: '/opt-in/confirm', body: { token: 'abc' } }]);
    expect(container.querySelector('[data-testid=voucher-code]')?.textContent).toBe('M-0001');
    expect(container.textContent).toContain('Enjoy!');
  });

  it('shows the code again on a reload of the page this tab confirmed, and asks again for another link', async () => {
    const answer = () => ({ provider: 'messe', voucherCode: 'M-0001' });
    const first = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe&token=abc',
      answer,
    );
    await click(button(first.container, 'Confirm sign-up'));
    cleanUp();
    const reloaded = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe&token=abc',
      answer,
    );
    await act(async () => undefined);
    expect(reloaded.calls).toEqual([{ path: '/opt-in/confirm', body: { token: 'abc' } }]);
    expect(reloaded.container.querySelector('[data-testid=voucher-code]')?.textContent).toBe('M-0001');
    cleanUp();
    const other = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe&token=xyz',
      answer,
    );
    await act(async () => undefined);
    expect(other.calls).toEqual([]);
    expect(other.container.querySelector('[data-testid=voucher-code]')).toBeNull();
    expect(button(other.container, 'Confirm sign-up')?.disabled).toBe(false);
  });

  it('leads from a dead link back to the form, of the same provider', async () => {
    const dead = () => new ApiError(404, 'not_found', 'This link is not valid.');
    const optIn = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe&token=abc',
      dead,
    );
    await click(button(optIn.container, 'Confirm sign-up'));
    const back = [...optIn.container.querySelectorAll('a')].find(
      (a) => a.textContent === 'Back to the sign-up',
    );
    expect(back?.getAttribute('href')).toBe('/opt-in-widget?provider=messe');
    cleanUp();
    const email = await render(<EmailWidgetScreen />, config({}), '/email-widget?token=abc', dead);
    await click(email.container.querySelector('main button, section button') as HTMLButtonElement);
    const toForm = [...email.container.querySelectorAll('a')].find(
      (a) => a.textContent === 'Back to the form',
    );
    expect(toForm?.getAttribute('href')).toBe('/email-widget');
  });
});

describe('a refused submit of a widget focuses the first invalid field (WCAG 3.3.1)', () => {
  it('in the e-mail widget, sending nothing', async () => {
    const { container, calls } = await render(<EmailWidgetScreen />, config({}), '/email-widget');
    await act(async () => type(byLabel(container, 'E-mail address'), 'anna@example.org'));
    const submit = button(container, 'Request my rewards');
    submit.focus();
    await click(submit);
    expect(document.activeElement).toBe(byLabel(container, 'Order number'));
    expect(document.activeElement?.getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);
  });

  it('in the opt-in widget, sending nothing', async () => {
    const { container, calls } = await render(
      <OptInWidgetScreen />,
      config({}),
      '/opt-in-widget?provider=messe',
    );
    const submit = button(container, 'Sign up');
    submit.focus();
    await click(submit);
    const focused = document.activeElement as HTMLElement;
    expect(focused).not.toBe(submit);
    expect(focused.getAttribute('aria-invalid')).toBe('true');
    expect(container.querySelector('form [aria-invalid="true"]')).toBe(focused);
    expect(calls).toEqual([]);
  });
});
