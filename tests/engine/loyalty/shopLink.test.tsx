// @vitest-environment jsdom
/**
 * A shop-link reward's claim (account-flows.md §4 "Reward claim": it "redirects to a shop link"):
 * standalone the portal's tab goes to the shop; embedded in a publisher's page the shop opens in a
 * new tab, so the frame keeps the portal, and a tab the browser blocked is offered as a link.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoyaltyReward, LoyaltyTier } from '../../../schemas/generated/loyalty';
import { RewardCard } from '../../../engine/features/loyalty-programme/RewardCard';
import {
  byText,
  cleanUp,
  click,
  engineTexts,
  fakeApi,
  polyfillDialogs,
  portalConfig,
  render,
} from '../../support/renderScreen';

const FOLDERS = ['core', 'account', 'features/loyalty-programme'];
const en = engineTexts(FOLDERS)['en-GB'];
const SHOP = 'https://shop.example.com/loyalty/tea';

const reward: LoyaltyReward = {
  id: 'tea',
  name: { 'en-GB': 'Tea sampler' },
  description: { 'en-GB': 'A tea sampler from our shop.' },
  iconUrl: null,
  mainImageUrl: null,
  rewardType: 'L',
  claimable: true,
  used: false,
  targetURL: null,
  consent: null,
  tierCode: 'T1',
  favorite: false,
};
const tier: LoyaltyTier = {
  id: 't1',
  tierCode: 'T1',
  name: { 'en-GB': 'Reader' },
  description: { 'en-GB': '' },
  runtimeToReach: 0,
  reachedIconUrl: null,
  lockedIconUrl: null,
  reached: true,
  rewards: [reward],
};

beforeAll(polyfillDialogs);
afterEach(() => {
  cleanUp();
  vi.restoreAllMocks();
});

/** Renders the card as a frame's page when `framed`, and claims its reward. */
async function claimShopReward(framed: boolean, openedTab: Window | null, targetURL = SHOP) {
  const assign = vi.fn();
  vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign });
  if (framed) vi.spyOn(window, 'parent', 'get').mockReturnValue({} as Window);
  const open = vi.spyOn(window, 'open').mockReturnValue(openedTab);
  const api = fakeApi({}, { '/loyalty-programme/claim-reward': { targetURL, codeValue: null } });
  const { page } = await render(
    <ul>
      <RewardCard
        reward={reward}
        tier={tier}
        runtime={3}
        onFavorite={() => undefined}
        favoriteBusy={false}
        onClaimed={() => undefined}
      />
    </ul>,
    { api, path: '/', portal: portalConfig(FOLDERS) },
  );
  await click(byText(page, 'button', en['loyalty-programme.reward.toShop'])!);
  return { page, assign, open };
}

describe("a shop-link reward's claim", () => {
  it('sends a standalone portal on to the shop', async () => {
    const { assign, open } = await claimShopReward(false, null);
    expect(assign).toHaveBeenCalledWith(SHOP);
    expect(open).not.toHaveBeenCalled();
  });

  it('opens the shop in a new tab from a portal embedded in a frame, without a handle on the frame', async () => {
    const tab = { opener: window, location: { href: 'about:blank' } } as unknown as Window;
    const { page, assign, open } = await claimShopReward(true, tab);
    expect(open).toHaveBeenCalledWith('about:blank', '_blank');
    expect(tab.opener).toBeNull();
    expect(tab.location.href).toBe(SHOP);
    expect(assign).not.toHaveBeenCalled();
    expect(page.ownerDocument.querySelector('dialog[open]')).toBeNull();
  });

  it('offers the shop as a link when the browser blocked the new tab', async () => {
    const { page, assign } = await claimShopReward(true, null);
    expect(assign).not.toHaveBeenCalled();
    const dialog = page.ownerDocument.querySelector('dialog[open]')!;
    expect(dialog.textContent).toContain(en['loyalty-programme.claim.shopReady']);
    const link = byText(dialog, 'a', en['loyalty-programme.reward.toShop']) as HTMLAnchorElement;
    expect(link.href).toBe(SHOP);
    expect(link.target).toBe('_blank');
  });

  it('follows no link that is not a web address, in the frame or not', async () => {
    for (const framed of [false, true]) {
      const { page, assign, open } = await claimShopReward(framed, null, 'javascript:alert(1)');
      expect(assign).not.toHaveBeenCalled();
      expect(open).not.toHaveBeenCalled();
      expect(page.ownerDocument.querySelector('dialog[open]')).toBeNull();
      cleanUp();
      vi.restoreAllMocks();
    }
  });
});

describe("a reward's favourite button while its change is saved", () => {
  it('keeps the keyboard focus and ignores a press until the change is saved', async () => {
    const onFavorite = vi.fn();
    const { page } = await render(
      <ul>
        <RewardCard
          reward={reward}
          tier={tier}
          runtime={3}
          onFavorite={onFavorite}
          favoriteBusy
          onClaimed={() => undefined}
        />
      </ul>,
      { api: fakeApi({}), path: '/', portal: portalConfig(FOLDERS) },
    );
    const star = page.querySelector<HTMLButtonElement>('.loyalty-favorite')!;
    star.focus();
    expect(star.disabled).toBe(false);
    expect(star.getAttribute('aria-disabled')).toBe('true');
    await click(star);
    expect(onFavorite).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(star);
  });
});
