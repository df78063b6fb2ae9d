// @vitest-environment jsdom
/**
 * The phase upgrade on the subscription page (portal-core.md §2 "a phase-upgrade button"): the
 * button by its capability rule, the dialog that asks, the confirmation that stays when the change
 * took the page's only button away, and a refused request on a stale page, which shows the
 * subscription as it is now and says the phase has moved already.
 */
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ActionButtons } from '../../../engine/features/subscription/ActionButtons';
import { actions } from '../../../engine/features/phase-upgrade/actions';
import { ApiError } from '../../../engine/domain/apiError';
import type { Subscription } from '../../../schemas/generated/subscription';
import { makeSubscription } from '../../support/subscriptionBuilder';
import {
  byText,
  cleanUp,
  click,
  fakeApi,
  openDialog,
  polyfillDialogs,
  portalConfig,
  render,
  settleUntil,
} from '../../support/renderScreen';
import en from '../../../engine/features/phase-upgrade/texts.json';

beforeAll(polyfillDialogs);
afterEach(cleanUp);

const t = en['en-GB'];
const tenant = { features: ['phase-upgrade'] };
const portal = portalConfig(['core', 'account', 'features/subscription', 'features/phase-upgrade'], tenant);
const trial = makeSubscription({ orderStatus: 'IZ', roles: ['AG'], currentPhase: { canUpgrade: true } });
const moved: Subscription = { ...trial, currentPhase: { canUpgrade: false } };
const PATH = `/subscriptions/${trial.id}`;

function Page() {
  const [s, setS] = useState(trial);
  return (
    <ActionButtons actions={actions} subscription={s} ctx={{ tenant: portal.tenant }} onChanged={setS} />
  );
}

/** The open dialog, once its lazily loaded module has arrived. */
async function dialogOf(page: HTMLElement): Promise<HTMLDialogElement> {
  await settleUntil(() => openDialog(page) !== undefined);
  return openDialog(page)!;
}

async function show(post: unknown, get: Subscription = moved) {
  const api = fakeApi({ [PATH]: get }, { [`${PATH}/phase-upgrade`]: post });
  const { page } = await render(<Page />, { api, path: PATH, portal });
  return { api, page };
}

describe('the phase-upgrade button', () => {
  it('asks, moves the phase, and keeps its confirmation when the page has no button left', async () => {
    const { api, page } = await show(moved);
    await click(byText(page, 'button', t['phase-upgrade.action']));
    const asking = await dialogOf(page);
    expect(asking.textContent).toContain(t['phase-upgrade.text']);
    await click(byText(asking, 'button', t['phase-upgrade.confirm']));
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: `${PATH}/phase-upgrade`, body: undefined },
    ]);
    expect(openDialog(page)!.textContent).toContain(t['phase-upgrade.doneText']);
    expect(byText(page, 'button', t['phase-upgrade.action'])).toBeUndefined();
    await click(byText(openDialog(page)!, 'button', 'Close'));
    expect(openDialog(page)).toBeUndefined();
  });

  it('on a stale page, shows the subscription as it is and says the phase has moved already', async () => {
    const { page } = await show(new ApiError(403, 'not_allowed', 'refused'));
    await click(byText(page, 'button', t['phase-upgrade.action']));
    await click(byText(await dialogOf(page), 'button', t['phase-upgrade.confirm']));
    expect(openDialog(page)!.textContent).toContain(t['phase-upgrade.alreadyText']);
    expect(byText(page, 'button', t['phase-upgrade.action'])).toBeUndefined();
  });

  it('says it failed, and keeps the button, when the phase can still move', async () => {
    const { page } = await show(new ApiError(500, 'internal', 'broken'), trial);
    await click(byText(page, 'button', t['phase-upgrade.action']));
    await click(byText(await dialogOf(page), 'button', t['phase-upgrade.confirm']));
    expect(openDialog(page)!.querySelector('[role="alert"]')).not.toBeNull();
    expect(byText(page, 'button', t['phase-upgrade.action'])).toBeDefined();
  });
});
