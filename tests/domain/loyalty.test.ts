import { describe, expect, it } from 'vitest';
import {
  claimRefusal,
  nextTier,
  rewardKind,
  runtimeMonths,
  showLoyaltyInMenu,
  tierProgress,
  visibleRewards,
} from '../../engine/domain/loyalty';
import {
  canDeleteSsoAccount,
  canEditSsoEmail,
  deleteConfirmationMatches,
  passwordChangeProblem,
  ssoEmailProblem,
} from '../../engine/domain/ssoProfile';

const tiers = [
  { tierCode: 'STARTER', runtimeToReach: 0 },
  { tierCode: 'SILVER', runtimeToReach: 12 },
  { tierCode: 'GOLD', runtimeToReach: 36 },
];
const member = { optedIn: true, runtime: 20 };
const reward = { claimable: true, used: false, rewardType: 'G' };

describe('loyalty rules (account-flows.md §3, §4 "Reward claim")', () => {
  it('tells codes, shop links (L and 3) and other rewards apart', () => {
    expect(['G', 'L', '3', 'X'].map(rewardKind)).toEqual(['code', 'shop-link', 'shop-link', 'other']);
  });

  it.each([
    ['not opted in', reward, tiers[0], { optedIn: false, runtime: 50 }, 'not_opted_in'],
    ['a tier not reached', reward, tiers[2], member, 'not_available'],
    ['a reward used before', { ...reward, used: true }, tiers[1], member, 'already_used'],
    ['a reward not claimable', { ...reward, claimable: false }, tiers[1], member, 'not_claimable'],
    [
      'a reward that is neither code nor shop link',
      { ...reward, rewardType: 'X' },
      tiers[1],
      member,
      'not_claimable',
    ],
    ['a reward of a tier reached exactly', reward, tiers[1], { optedIn: true, runtime: 12 }, null],
  ] as const)('refuses a claim for %s', (_, r, tier, m, expected) => {
    expect(claimRefusal(r, tier, m)).toBe(expected);
  });

  it('steps the progress bar by tier, filling the step the member is in', () => {
    expect(tierProgress(tiers, 0).fraction).toBe(0);
    expect(tierProgress(tiers, 6).fraction).toBeCloseTo(0.25);
    expect(tierProgress(tiers, 12).fraction).toBeCloseTo(0.5);
    expect(tierProgress(tiers, 24).fraction).toBeCloseTo(0.75);
    expect(tierProgress(tiers, 99).fraction).toBe(1);
    expect(tierProgress(tiers, 20).steps).toEqual([
      { tierCode: 'STARTER', at: 0, reached: true },
      { tierCode: 'SILVER', at: 0.5, reached: true },
      { tierCode: 'GOLD', at: 1, reached: false },
    ]);
    expect(nextTier(tiers, 20)).toEqual({ tier: tiers[2], monthsToGo: 16 });
    expect(nextTier(tiers, 40)).toBeNull();
  });

  it('shows 8 rewards per tier until "more"', () => {
    const ten = Array.from({ length: 10 }, (_, i) => i);
    expect(visibleRewards(ten, false)).toEqual({ shown: ten.slice(0, 8), hasMore: true });
    expect(visibleRewards(ten, true).shown).toHaveLength(10);
    expect(visibleRewards(ten.slice(0, 8), false).hasMore).toBe(false);
  });

  it('counts the runtime in whole months from the earliest subscription start', () => {
    expect(runtimeMonths([], '2026-11-22')).toBe(0);
    expect(runtimeMonths(['2026-10-23'], '2026-11-22')).toBe(0);
    expect(runtimeMonths(['2026-10-22'], '2026-11-22')).toBe(1);
    expect(runtimeMonths(['2025-01-15', '2020-11-30', null], '2026-11-22')).toBe(71);
    expect(runtimeMonths(['2027-01-01'], '2026-11-22')).toBe(0);
  });

  it('shows the menu item only with the feature and showInNavbar', () => {
    expect(showLoyaltyInMenu({ features: ['loyalty-programme'], loyalty: { showInNavbar: true } })).toBe(
      true,
    );
    expect(showLoyaltyInMenu({ features: ['loyalty-programme'], loyalty: { showInNavbar: false } })).toBe(
      false,
    );
    expect(showLoyaltyInMenu({ features: [], loyalty: { showInNavbar: true } })).toBe(false);
  });
});

describe('SSO profile rules (account-flows.md §5 "SSO", "Password", §9)', () => {
  it('wants a trimmed, plausible, different address of at most 50 characters', () => {
    expect(ssoEmailProblem('   ')).toBe('required');
    expect(ssoEmailProblem(`${'a'.repeat(39)}@example.com`)).toBe('too_long');
    expect(ssoEmailProblem(` ${'a'.repeat(38)}@example.com `)).toBeNull();
    expect(ssoEmailProblem('nope')).toBe('invalid');
    // It becomes the login: one the sign-in forms would refuse would lock its owner out.
    expect(ssoEmailProblem('zoë@exämple.org')).toBe('not_for_sign_in');
    expect(ssoEmailProblem('Me@Example.com', 'me@example.com')).toBe('unchanged');
  });

  it('deletes only when the typed address matches the account', () => {
    expect(deleteConfirmationMatches(' ME@example.com ', 'me@example.com')).toBe(true);
    expect(deleteConfirmationMatches('you@example.com', 'me@example.com')).toBe(false);
    expect(deleteConfirmationMatches('', '')).toBe(false);
  });

  it('needs the current password when there is one, and a new one by the rules', () => {
    expect(passwordChangeProblem({ newPassword: 'Lesen2026' }, true)).toBe('current_required');
    expect(passwordChangeProblem({ newPassword: 'Lesen2026' }, false)).toBeNull();
    expect(passwordChangeProblem({ newPassword: 'lesen2026' }, false)).toBe('invalid');
    expect(passwordChangeProblem({ newPassword: 'Lesen2026', repeatPassword: 'Lesen2027' }, false)).toBe(
      'mismatch',
    );
    expect(passwordChangeProblem({ currentPassword: 'Lesen2026', newPassword: 'Lesen2026' }, true)).toBe(
      'unchanged',
    );
  });

  it('reads the tenant switches: e-mail change on by default, deletion off by default', () => {
    const on = { features: ['sso-profile-page'] };
    expect([canEditSsoEmail(on), canDeleteSsoAccount(on)]).toEqual([true, false]);
    expect(canDeleteSsoAccount({ ...on, ssoProfilePage: { deleteEmail: true } })).toBe(true);
    expect(canEditSsoEmail({ ...on, ssoProfilePage: { editEmail: false } })).toBe(false);
    expect(canEditSsoEmail({ features: [] })).toBe(false);
  });
});
