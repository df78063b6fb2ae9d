// @vitest-environment jsdom
/**
 * The opt-ins page in jsdom with a fake API (account-flows.md §2 "Opt-ins", §4 "Opt-ins": "Save
 * is enabled only when a value differs from the loaded one; after save the loaded values reset and
 * a pending-confirmation note shows").
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OptIn } from '../../../schemas/generated/account-changes';
import { ApiError } from '../../../engine/domain/apiError';
import OptInsScreen from '../../../engine/features/opt-ins/OptInsScreen';
import { makeSubscription } from '../../support/subscriptionBuilder';
import { byText, cleanUp, click, en, fakeApi, openDialog, polyfillDialogs, render } from './harness';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const subscription = makeSubscription();
const S = `/subscriptions/${subscription.id}`;
const OPT_INS = `${S}/business-partners/${subscription.currentRoleBusinessPartner.bpNumber}/opt-ins`;
const loaded: OptIn[] = [
  { type: 'NEWSLETTER', description: 'Newsletter (server text)', value: true, pending: false },
  { type: 'ANGEBOTE', description: 'Offers on subscriptions', value: false, pending: false },
];

async function page(post: Record<string, unknown> = {}, list: unknown = loaded) {
  const api = fakeApi({ [S]: subscription, [OPT_INS]: list }, post);
  const { page } = await render(<OptInsScreen />, {
    api,
    path: `${S}/opt-ins`,
    route: 'subscriptions/:id/opt-ins',
  });
  const box = (name: string) =>
    page.querySelector<HTMLInputElement>(`input[type="checkbox"][name="${name}"]`)!;
  const save = () => byText(page, 'button', en['opt-ins.save']) as HTMLButtonElement;
  return { api, page, box, save };
}

describe('opt-ins page', () => {
  it("labels each box by the tenant's label of its type, else the server's description", async () => {
    const { box } = await page();
    expect(box('NEWSLETTER').closest('label')!.textContent).toBe('Newsletter by e-mail');
    expect(box('ANGEBOTE').closest('label')!.textContent).toBe('Offers on subscriptions');
    expect(box('NEWSLETTER').checked).toBe(true);
  });

  it('enables save only while a box differs from the loaded value', async () => {
    const { box, save } = await page();
    expect(save().disabled).toBe(true);
    await click(box('ANGEBOTE'));
    expect(save().disabled).toBe(false);
    await click(box('ANGEBOTE'));
    expect(save().disabled).toBe(true);
  });

  it('sends only the changed items, takes the answer as the loaded state and notes the opt-ins waiting for the e-mail link', async () => {
    const answer: OptIn[] = [
      { type: 'NEWSLETTER', description: 'Newsletter (server text)', value: false, pending: false },
      { type: 'ANGEBOTE', description: 'Offers on subscriptions', value: false, pending: true },
    ];
    const { api, page: screen, box, save } = await page({ [OPT_INS]: answer });
    await click(box('NEWSLETTER'));
    await click(box('ANGEBOTE'));
    await click(save());

    expect(api.calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: OPT_INS,
      body: {
        optIns: [
          { type: 'NEWSLETTER', value: false },
          { type: 'ANGEBOTE', value: true },
        ],
      },
    });
    expect(screen.textContent).toContain(en['opt-ins.saved']);
    expect(screen.textContent).toContain(en['opt-ins.pendingNote']);
    expect(byText(screen, 'li', 'Offers on subscriptions')).toBeDefined();
    // The answer is the loaded state now: nothing differs, and the pending one stays ticked.
    expect(save().disabled).toBe(true);
    expect(box('ANGEBOTE').checked).toBe(true);
    expect(box('NEWSLETTER').checked).toBe(false);
    expect(box('ANGEBOTE').closest('label')!.textContent).toContain(en['opt-ins.pending']);
  });

  it('shows the empty message without opt-ins and the error dialog when saving fails', async () => {
    const empty = await page({}, []);
    expect(empty.page.textContent).toContain(en['opt-ins.empty']);
    cleanUp();

    const { page: screen, box, save } = await page({ [OPT_INS]: new ApiError(500, 'internal', 'boom') });
    await click(box('ANGEBOTE'));
    await click(save());
    expect(openDialog(screen)!.textContent).toContain(en['shell.genericError']);
    // Nothing was lost: the change is still there to try again.
    expect(box('ANGEBOTE').checked).toBe(true);
  });
});
