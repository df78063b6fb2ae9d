// @vitest-environment jsdom
/**
 * The open offer payments of a renewal or upgrade page loaded again (account-flows.md §4
 * "processing"): what the page says of a payment still waiting for its window, and giving it up.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenPayments } from '../../../engine/account/offers/OpenPayments';
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

const FOLDERS = ['core', 'account'];
const { 'en-GB': en, 'de-DE': de } = engineTexts(FOLDERS);
const open = {
  id: 'pay-1',
  subscriptionId: 'S1',
  amount: 59,
  currency: 'EUR',
  method: 'CREDIT_CARD',
  createdAt: '2026-11-29T17:30:00.000Z',
  orderNumbers: ['4000000001'],
};

describe('open payments', () => {
  it('says a payment is still open, in the screen language, and gives it up on request', async () => {
    let abandoned = false;
    const api = fakeApi(
      { '/subscriptions/S1/pending-payments': () => (abandoned ? [] : [open]) },
      {
        '/subscriptions/S1/pending-payments/pay-1/abandon': () => {
          abandoned = true;
          return { status: 'canceled' };
        },
      },
    );
    const onGivenUp = vi.fn();
    const { page } = await render(
      <OpenPayments subscriptionIds={['S1']} hidden={false} round="idle" onGivenUp={onGivenUp} />,
      { api, path: '/', portal: portalConfig(FOLDERS), locale: 'de-DE' },
    );
    expect(page.textContent).toMatch(/59,00\s€/);
    expect(page.textContent).toContain(de['account.flow.openPayment'].split('{{amount}}')[0]);
    await click(byText(page, 'button', de['account.flow.giveUpPayment']));
    expect(api.calls).toContainEqual({
      method: 'POST',
      path: '/subscriptions/S1/pending-payments/pay-1/abandon',
      body: undefined,
    });
    expect(onGivenUp).toHaveBeenCalledOnce();
    expect(page.textContent).not.toContain(de['account.flow.giveUpPayment']);
  });

  it('names the orders of a bulk renewal whose one payment it is, since the amount is theirs together', async () => {
    const several = { ...open, amount: 252, orderNumbers: ['4000000001', '4000000002'] };
    const api = fakeApi({ '/subscriptions/S1/pending-payments': [several] });
    const { page } = await render(
      <OpenPayments subscriptionIds={['S1']} hidden={false} round="idle" onGivenUp={() => undefined} />,
      { api, path: '/', portal: portalConfig(FOLDERS) },
    );
    expect(page.textContent).toContain('for the offers of orders 4000000001, 4000000002 (a bulk renewal)');
    expect(page.textContent).toMatch(/€252\.00/);
  });

  it("stays silent while the page's own payment runs, and when nothing is open", async () => {
    for (const [hidden, list] of [
      [true, [open]],
      [false, []],
    ] as const) {
      const api = fakeApi({ '/subscriptions/S1/pending-payments': list });
      const { page } = await render(
        <OpenPayments subscriptionIds={['S1']} hidden={hidden} round="idle" onGivenUp={() => undefined} />,
        { api, path: '/', portal: portalConfig(FOLDERS) },
      );
      expect(page.textContent).not.toContain(en['account.flow.giveUpPayment']);
      cleanUp();
    }
  });
});
