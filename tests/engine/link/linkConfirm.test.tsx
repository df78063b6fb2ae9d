// @vitest-environment jsdom
/**
 * /link-subscription/confirm, the page of the link a confirm_email answer mails to a subscription's
 * address on record (docs/architecture.md "Sign-in safety"): opening it sends nothing, the button
 * confirms; the account that asked gets the new-subscription badge, anyone else reads where it went.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../engine/domain/apiError';
import LinkConfirmScreen from '../../../engine/features/link-subscription/LinkConfirmScreen';
import { newSubscriptionAtom } from '../../../engine/account/newSubscription';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
} from '../../support/renderScreen';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/link-subscription'];
const texts = engineTexts(FOLDERS);
const en = texts['en-GB'];
const de = texts['de-DE'];
const TOKEN = 'A'.repeat(43);
const confirmation = {
  orderNumber: '4000123456',
  bpNumber: '0012345678',
  maskedAccountEmail: 'u***@acme.example',
};

async function confirmPage(
  answer: unknown,
  options: { signedIn?: boolean; locale?: 'en-GB' | 'de-DE'; details?: unknown } = {},
) {
  const api = fakeApi(
    {},
    {
      '/link-subscription/confirm/details': options.details ?? confirmation,
      '/link-subscription/confirm': answer,
    },
  );
  const rendered = await render(<LinkConfirmScreen />, {
    api,
    path: `/link-subscription/confirm?t=${TOKEN}`,
    portal: portalConfig(FOLDERS),
    locale: options.locale ?? 'en-GB',
    loginSource: options.signedIn === false ? null : 'token',
  });
  return { api, ...rendered };
}

describe('the confirmation of a link mailed to the address on record', () => {
  it('spends nothing when opened, names what it links, links on the button and gives the account that asked its badge', async () => {
    const { api, page, store, router } = await confirmPage({ ...confirmation, yours: true });
    const details = { method: 'POST', path: '/link-subscription/confirm/details', body: { token: TOKEN } };
    expect(api.calls).toEqual([details]);
    expect(page.textContent).toContain(en['link-subscription.confirmLink.intro']);
    expect(page.textContent).toContain(
      'Your confirmation links the subscription with order number 4000123456 to the customer account u***@acme.example.',
    );
    await click(byText(page, 'button', en['link-subscription.confirmLink.submit']));
    expect(api.calls).toEqual([
      details,
      { method: 'POST', path: '/link-subscription/confirm', body: { token: TOKEN } },
    ]);
    expect(page.textContent).toContain(
      en['link-subscription.confirmLink.done'].replace('{{maskedEmail}}', 'u***@acme.example'),
    );
    expect(store.get(newSubscriptionAtom)).toMatchObject({ userId: 'u1', orderNumber: '4000123456' });
    expect(byText(page, 'button', en['link-subscription.toOrders'])).toBeDefined();
    // The spent token leaves the address; the outcome stays with the history entry for a reload.
    expect(router.state.location.search).toBe('');
    expect(router.state.location.state).toEqual({
      mailedLinkDone: { value: { ...confirmation, yours: true } },
    });
  });

  it('tells a visitor who is not that account where it went, without the badge or the way to orders', async () => {
    const { page, store } = await confirmPage(
      { ...confirmation, yours: false },
      { signedIn: false, locale: 'de-DE' },
    );
    await click(byText(page, 'button', de['link-subscription.confirmLink.submit']));
    expect(page.textContent).toContain(
      de['link-subscription.confirmLink.done'].replace('{{maskedEmail}}', 'u***@acme.example'),
    );
    expect(store.get(newSubscriptionAtom)).toBeUndefined();
    expect(page.textContent).not.toContain(de['link-subscription.toOrders']);
  });

  it('says when the link is spent or another account took the subscription meanwhile', async () => {
    for (const [error, key] of [
      [new ApiError(400, 'invalid_token', 'spent'), 'link-subscription.confirmLink.invalid'],
      [new ApiError(409, 'already_linked', 'taken'), 'link-subscription.confirmLink.alreadyLinked'],
      [new ApiError(500, 'internal_error', 'boom'), 'link-subscription.confirmLink.failed'],
    ] as const) {
      const { page } = await confirmPage(error);
      await click(byText(page, 'button', en['link-subscription.confirmLink.submit']));
      expect(page.querySelector('[role="alert"]')?.textContent).toBe(en[key]);
      cleanUp();
    }
  });

  it('says at once when the link can no longer link, with no button that can only fail', async () => {
    const { page } = await confirmPage(
      { ...confirmation, yours: false },
      { details: new ApiError(400, 'invalid_token', 'spent'), locale: 'de-DE' },
    );
    expect(page.querySelector('[role="alert"]')?.textContent).toBe(
      de['link-subscription.confirmLink.invalid'],
    );
    expect(page.querySelector('button')).toBeNull();
  });

  it('names the subscriptions of a customer number when the link is for a customer number', async () => {
    const { page } = await confirmPage(
      { ...confirmation, yours: false },
      { details: { ...confirmation, orderNumber: null }, locale: 'de-DE' },
    );
    expect(page.textContent).toContain(
      'Ihre Bestätigung verknüpft die Abonnements der Kundennummer 0012345678 mit dem Kundenkonto u***@acme.example.',
    );
  });
});
