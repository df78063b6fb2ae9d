// @vitest-environment jsdom
/**
 * The orders page's notices of rejected changes: each names the change (with its subscription's
 * order number where it was one of a subscription's) and its day and
 * gives the order system's reason in the screen's language, and says the account shows the previous
 * details again where the rejection took something back; nothing shows when there are none, or
 * for a "logged in only" session, which does not ask at all. The page loads the notices' file only
 * when there are some (useOrdersPage).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RejectedChanges } from '../../../engine/features/orders/RejectedChanges';
import { useRejectedChanges } from '../../../engine/features/orders/rejectedChanges';
import { cleanUp, fakeApi, portalConfig, render } from '../../support/renderScreen';

const portal = portalConfig(['features/orders', 'account', 'ui']);
const rejected = [
  {
    eventId: '5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
    type: 'address.changed',
    changedAt: '2026-11-03T10:00:00.000Z',
    rejectedAt: '2026-11-04T08:00:00.000Z',
    reason: 'Die Adresse liegt außerhalb unseres Zustellgebiets.',
    undone: true,
    orderNumber: null,
    refund: null,
  },
  {
    eventId: '7b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
    type: 'subscription.cancelled',
    changedAt: '2026-11-02T12:00:00.000Z',
    rejectedAt: '2026-11-04T08:00:00.000Z',
    // Without its full stop: the notice ends the reason as a sentence before its own next one.
    reason: 'Die Mindestlaufzeit ist noch nicht erreicht',
    undone: true,
    orderNumber: '4000000001',
    refund: null,
  },
  {
    eventId: '6b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
    type: 'something.new',
    changedAt: '2026-11-02T10:00:00.000Z',
    rejectedAt: '2026-11-04T08:00:00.000Z',
    reason: 'Nicht möglich.',
    undone: false,
    orderNumber: null,
    refund: null,
  },
];

/** A paid renewal the order system rejected, its refund at each stage. */
const paidOffer = (status: 'due' | 'issued' | 'failed', eventId: string) => ({
  eventId,
  type: 'offer.accepted',
  changedAt: '2026-11-05T09:00:00.000Z',
  rejectedAt: '2026-11-06T08:00:00.000Z',
  reason: 'Not possible.',
  undone: true,
  orderNumber: '4000000002',
  refund: { amount: 89.9, currency: 'GBP', status },
});

afterEach(cleanUp);

/** As the orders page shows them: asked by its hook, the notices when there are any. */
function Notices() {
  const { state } = useRejectedChanges();
  return state.status === 'ready' && state.data.length > 0 ? <RejectedChanges changes={state.data} /> : null;
}

describe('rejected changes on the orders page', () => {
  it('names the change, its day and the reason, in German', async () => {
    const { page } = await render(<Notices />, {
      api: fakeApi({ '/rejected-changes': rejected }),
      path: '/orders',
      portal,
      locale: 'de-DE',
    });
    const notices = [...page.querySelectorAll('.alert')].map((n) => n.textContent);
    expect(notices).toEqual([
      'Ihre Adressänderung vom 03.11.2026 wurde nicht übernommen: Die Adresse liegt außerhalb unseres Zustellgebiets. Ihr Konto zeigt wieder die bisherigen Angaben.',
      // A subscription's change names the subscription by its order number.
      'Ihre Kündigung zu Auftragsnummer 4000000001 vom 02.11.2026 wurde nicht übernommen: Die Mindestlaufzeit ist noch nicht erreicht. Ihr Konto zeigt wieder die bisherigen Angaben.',
      // Nothing was taken back (a message sent, say): the account shows what it showed.
      'Ihre Änderung vom 02.11.2026 wurde nicht übernommen: Nicht möglich.',
    ]);
  });

  it('says what was paid online goes back, and how far its refund has got, in English', async () => {
    const { page } = await render(<Notices />, {
      api: fakeApi({
        '/rejected-changes': [
          paidOffer('due', '1b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b'),
          paidOffer('issued', '2b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b'),
          paidOffer('failed', '3b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b'),
        ],
      }),
      path: '/orders',
      portal,
      locale: 'en-GB',
    });
    const notices = [...page.querySelectorAll('.alert')].map((n) => n.textContent);
    const rejection =
      'Your order of an offer for order number 4000000002 on 5 Nov 2026 was not accepted: Not possible. Your account shows the previous details again.';
    expect(notices).toEqual([
      `${rejection} The £89.90 you paid online for it will be refunded to the card or PayPal account you paid with.`,
      `${rejection} The £89.90 you paid online for it has been refunded.`,
      `${rejection} We could not refund the £89.90 you paid online for it automatically. Please get in touch with us.`,
    ]);
  });

  it('shows nothing without rejections, and asks nothing in a "logged in only" session', async () => {
    const empty = await render(<Notices />, {
      api: fakeApi({ '/rejected-changes': [] }),
      path: '/orders',
      portal,
    });
    expect(empty.page.querySelector('.alert')).toBeNull();
    cleanUp();
    const api = fakeApi({ '/rejected-changes': rejected });
    const partial = await render(<Notices />, {
      api,
      path: '/orders',
      portal,
      loginSource: 'order-number',
    });
    expect(partial.page.querySelector('.alert')).toBeNull();
    expect(api.calls).toEqual([]);
  });
});
