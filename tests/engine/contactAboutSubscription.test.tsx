// @vitest-environment jsdom
/**
 * "Contact about this subscription" (portal-core.md §2 Contact, query subscriptionId) opens the
 * form for that subscription: the message names it whatever the topic, where the topic needs no
 * subscription too, and the person may clear it there.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  byText,
  choose,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  labelled,
  polyfillDialogs,
  portalConfig,
  render,
  settleUntil,
  type,
} from '../support/renderScreen';
import { makeSubscription } from '../support/subscriptionBuilder';
import ContactScreen from '../../engine/features/contact/ContactScreen';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/contact'];
const texts = engineTexts(FOLDERS);
const subscription = makeSubscription({ id: '3014279685277', orderNumber: '4279685277' });
const ACTIVITIES = [
  { activity: 'SONSTIGES', name: { 'en-GB': 'Other', 'de-DE': 'Sonstiges' } },
  {
    activity: 'RECHNUNG',
    name: { 'en-GB': 'Invoice and payment', 'de-DE': 'Rechnung und Zahlung' },
    requiresSubscription: true,
  },
];

async function openContact(path: string, locale: 'en-GB' | 'de-DE' = 'en-GB') {
  const api = fakeApi({ '/subscriptions': [subscription] }, { '/contact': { result: 'sent' } });
  const { page } = await render(<ContactScreen />, {
    api,
    path,
    locale,
    portal: portalConfig(FOLDERS, { features: ['contact-form'], contactForm: { activities: ACTIVITIES } }),
  });
  return { page, api };
}

const sent = (api: ReturnType<typeof fakeApi>) =>
  api.calls.filter((call) => call.method === 'POST' && call.path === '/contact').map((call) => call.body);

describe('the contact form opened for a subscription', () => {
  it('sends the subscription with a topic that needs none, and names the choice in the language', async () => {
    for (const locale of ['en-GB', 'de-DE'] as const) {
      const t = texts[locale];
      const { page, api } = await openContact(`/contact?subscriptionId=${subscription.id}`, locale);
      await choose(page.querySelector<HTMLSelectElement>('select')!, 'SONSTIGES');
      const field = labelled<HTMLSelectElement>(page, t['contact.subscription']);
      await settleUntil(() => !field.disabled);
      expect(field.value).toBe(subscription.id);
      expect(field.required).toBe(false);
      expect(field.options[0].textContent).toBe(t['contact.subscriptionNone']);
      await type(page.querySelector('textarea')!, 'A question');
      await click(byText(page, 'button', t['contact.submit'])!);
      expect(sent(api)).toEqual([
        expect.objectContaining({ activity: 'SONSTIGES', subscriptionId: subscription.id }),
      ]);
      cleanUp();
    }
  });

  it('sends none once the person cleared it, and none where the form was not opened for one', async () => {
    const opened = await openContact(`/contact?subscriptionId=${subscription.id}&activity=SONSTIGES`);
    const field = labelled<HTMLSelectElement>(opened.page, texts['en-GB']['contact.subscription']);
    await settleUntil(() => !field.disabled);
    await choose(field, '');
    await type(opened.page.querySelector('textarea')!, 'A question');
    await click(byText(opened.page, 'button', texts['en-GB']['contact.submit'])!);
    expect(sent(opened.api)[0]).not.toHaveProperty('subscriptionId');
    cleanUp();

    // A link with an id the account does not have (an old one, another account's): none is sent.
    const stale = await openContact('/contact?subscriptionId=3019999999999&activity=SONSTIGES');
    await settleUntil(
      () => !labelled<HTMLSelectElement>(stale.page, texts['en-GB']['contact.subscription']).disabled,
    );
    await type(stale.page.querySelector('textarea')!, 'A question');
    await click(byText(stale.page, 'button', texts['en-GB']['contact.submit'])!);
    expect(sent(stale.api)[0]).not.toHaveProperty('subscriptionId');
    cleanUp();

    const plain = await openContact('/contact?activity=SONSTIGES');
    expect(plain.page.querySelectorAll('select')).toHaveLength(1);
    await type(plain.page.querySelector('textarea')!, 'A question');
    await click(byText(plain.page, 'button', texts['en-GB']['contact.submit'])!);
    expect(sent(plain.api)[0]).not.toHaveProperty('subscriptionId');
  });
});
