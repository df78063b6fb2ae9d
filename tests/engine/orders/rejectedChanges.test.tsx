// @vitest-environment jsdom
/**
 * The orders page's notices of rejected changes: each names the change (with its subscription's
 * order number where it was one of a subscription's) and its day and
 * gives the order system's reason in the screen's language, and says the account shows the previous
 * details again where the rejection took something back; nothing shows when there are none, or
 * for a "logged in only" session, which does not ask at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RejectedChanges } from '../../../engine/features/orders/RejectedChanges';
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
  },
  {
    eventId: '7b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
    type: 'subscription.cancelled',
    changedAt: '2026-11-02T12:00:00.000Z',
    rejectedAt: '2026-11-04T08:00:00.000Z',
    reason: 'Die Mindestlaufzeit ist noch nicht erreicht.',
    undone: true,
    orderNumber: '4000000001',
  },
  {
    eventId: '6b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
    type: 'something.new',
    changedAt: '2026-11-02T10:00:00.000Z',
    rejectedAt: '2026-11-04T08:00:00.000Z',
    reason: 'Nicht möglich.',
    undone: false,
    orderNumber: null,
  },
];

afterEach(cleanUp);

describe('rejected changes on the orders page', () => {
  it('names the change, its day and the reason, in German', async () => {
    const { page } = await render(<RejectedChanges />, {
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

  it('shows nothing without rejections, and asks nothing in a "logged in only" session', async () => {
    const empty = await render(<RejectedChanges />, {
      api: fakeApi({ '/rejected-changes': [] }),
      path: '/orders',
      portal,
    });
    expect(empty.page.querySelector('.alert')).toBeNull();
    cleanUp();
    const api = fakeApi({ '/rejected-changes': rejected });
    const partial = await render(<RejectedChanges />, {
      api,
      path: '/orders',
      portal,
      loginSource: 'order-number',
    });
    expect(partial.page.querySelector('.alert')).toBeNull();
    expect(api.calls).toEqual([]);
  });
});
