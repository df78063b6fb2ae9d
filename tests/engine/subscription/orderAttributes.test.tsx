// @vitest-environment jsdom
/**
 * The order attributes of the subscription page (portal-core.md §3 "Order attribute config …
 * inputType", §5 "value required"): a value not of its attribute's kind is named in the screen's
 * language and not sent, and what was typed stays in the field.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OrderAttributes } from '../../../engine/features/subscription/OrderAttributes';
import type { PortalTenant } from '../../../engine/domain/portalConfig';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  portalConfig,
  render,
  type,
} from '../../support/renderScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';

afterEach(cleanUp);

const FOLDERS = ['core', 'account', 'features/subscription'];
const en = engineTexts(FOLDERS)['en-GB'];
const orderAttributes = {
  attributes: [{ type: 'SITE_PHONE', label: { 'en-GB': 'Site phone' }, creatable: true, inputType: 'tel' }],
};
const s = makeSubscription({ id: 'S-8', orderAttributes: [] });

describe('order attributes', () => {
  it('names a value not of the kind and sends none, keeping what was typed; a phone number is saved', async () => {
    const api = fakeApi({}, { [`/subscriptions/${s.id}/attributes`]: { ...s } });
    const tenant = { features: [], orderAttributes } as unknown as PortalTenant;
    const { page } = await render(<OrderAttributes subscription={s} ctx={{ tenant }} onSaved={() => {}} />, {
      api,
      path: '/',
      portal: portalConfig(FOLDERS, { orderAttributes }),
    });
    await click(byText(page, 'button', en['subscription.add'].replace('{{label}}', 'site phone')));
    const field = page.querySelector<HTMLInputElement>('#attribute-SITE_PHONE')!;
    expect(field.type).toBe('tel');
    await type(field, 'call the porter');
    await click(byText(page, 'button', en['subscription.save']));
    expect(page.querySelector('.form-error')!.textContent).toBe(en['subscription.attributeInvalid.tel']);
    expect(field.value).toBe('call the porter');
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
    await type(field, '+44 20 7946 0000');
    await click(byText(page, 'button', en['subscription.save']));
    expect(api.calls.find((call) => call.method === 'POST')!.body).toEqual({
      type: 'SITE_PHONE',
      value: '+44 20 7946 0000',
    });
  });
});
