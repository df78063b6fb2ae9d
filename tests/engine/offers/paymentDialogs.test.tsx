// @vitest-environment jsdom
/**
 * The dialog of a payment that ended cancelled (account-flows.md §8 paymentCanceled): given up by
 * its payer, or cancelled by the portal because the subscription was cancelled while its page was
 * open (engine/account/offers/paymentOutcomes.ts), each said in the screen's language.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PaymentDialogs } from '../../../engine/account/offers/PaymentDialogs';
import type { PaymentFlow, PaymentFlowState } from '../../../engine/account/offers/usePaymentFlow';
import {
  cleanUp,
  engineTexts,
  fakeApi,
  openDialog,
  polyfillDialogs,
  portalConfig,
  render,
} from '../../support/renderScreen';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const FOLDERS = ['core', 'account'];
const texts = engineTexts(FOLDERS);

const flowIn = (state: PaymentFlowState): PaymentFlow => ({
  state,
  accept: async () => undefined,
  stop: () => undefined,
  reset: () => undefined,
  fail: () => undefined,
});

describe('a cancelled payment’s dialog', () => {
  for (const locale of ['de-DE', 'en-GB'] as const) {
    it(`says why when the portal cancelled it, and not otherwise (${locale})`, async () => {
      const t = texts[locale];
      const shown = async (state: PaymentFlowState) => {
        const { page } = await render(<PaymentDialogs flow={flowIn(state)} />, {
          api: fakeApi({}),
          path: '/',
          portal: portalConfig(FOLDERS),
          locale,
        });
        const text = openDialog(page)?.textContent ?? '';
        cleanUp();
        return text;
      };
      const voided = await shown({ step: 'canceled', because: 'subscription_cancelled' });
      expect(voided).toContain(t['account.payment.canceledTitle']);
      expect(voided).toContain(t['account.payment.voidedText']);
      const givenUp = await shown({ step: 'canceled' });
      expect(givenUp).toContain(t['account.payment.canceledText']);
      expect(givenUp).not.toContain(t['account.payment.voidedText']);
    });
  }
});
