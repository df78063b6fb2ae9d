import { describe, expect, it } from 'vitest';
import { groupByBundle, matchesTitle, sortByOrderDateDesc } from '../../engine/features/orders/orderLists';
import { makeSubscription } from '../support/subscriptionBuilder';

const renewal = makeSubscription().renewal!;

describe('orders page (portal-core.md §2 "Orders page")', () => {
  it('searches titles case-insensitively', () => {
    expect(matchesTitle('Stadtkurier am Sonntag – Print', 'SONNTAG')).toBe(true);
    expect(matchesTitle('Stadtkurier am Sonntag – Print', '  sonntag ')).toBe(true);
    expect(matchesTitle('Stadtkurier – Print', 'E-Paper')).toBe(false);
  });

  it('sorts subscriptions by order date, newest first', () => {
    const list = [
      makeSubscription({ id: 'old', custOrderDate: '2020-01-01' }),
      makeSubscription({ id: 'new', custOrderDate: '2026-01-01' }),
      makeSubscription({ id: 'none', custOrderDate: null }),
    ];
    expect(sortByOrderDateDesc(list).map((s) => s.id)).toEqual(['new', 'old', 'none']);
  });

  it('groups subscriptions by bundle number with the master first and lists the rest flat', () => {
    const slave = makeSubscription({
      id: 'S',
      bundle: { bundleNumber: 'B' },
      renewal: { ...renewal, renewalBundleComponent: 'S' },
    });
    const master = makeSubscription({
      id: 'M',
      bundle: { bundleNumber: 'B' },
      renewal: { ...renewal, renewalBundleComponent: 'M' },
    });
    const single = makeSubscription({ id: 'X' });
    expect(groupByBundle([slave, single, master])).toEqual([
      { kind: 'group', group: { bundleNumber: 'B', members: [master, slave] } },
      { kind: 'single', subscription: single },
    ]);
  });

  it('places a bundle group where its first member stands, so a list sorted newest first stays so (§2 "Sorting")', () => {
    const newer = makeSubscription({ id: 'N', custOrderDate: '2026-02-03' });
    const master = makeSubscription({
      id: 'M',
      custOrderDate: '2025-10-26',
      bundle: { bundleNumber: 'B' },
      renewal: { ...renewal, renewalBundleComponent: 'M' },
    });
    const slave = makeSubscription({
      id: 'S',
      custOrderDate: '2025-10-26',
      bundle: { bundleNumber: 'B' },
      renewal: { ...renewal, renewalBundleComponent: 'S' },
    });
    const older = makeSubscription({ id: 'O', custOrderDate: '2024-05-01' });
    const entries = groupByBundle(sortByOrderDateDesc([older, slave, master, newer]));
    expect(
      entries.map((e) => (e.kind === 'group' ? `group ${e.group.bundleNumber}` : e.subscription.id)),
    ).toEqual(['N', 'group B', 'O']);
  });
});
