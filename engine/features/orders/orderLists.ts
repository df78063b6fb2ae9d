/** The orders page's lists (portal-core.md §2 "Orders page"): their order, search and bundle groups. */
import { isBundleMaster } from '../../domain/capabilityRule';
import type { SubscriptionSummary } from '../../account/types';
import { compareIso } from '../../domain/dates';

/** §2 "Orders page": subscriptions sorted by order date, newest first. */
export function sortByOrderDateDesc(subscriptions: SubscriptionSummary[]): SubscriptionSummary[] {
  return [...subscriptions].sort((a, b) => compareIso(b.custOrderDate ?? '', a.custOrderDate ?? ''));
}

/** §2: the search box is a case-insensitive filter on titles. */
export function matchesTitle(title: string, query: string): boolean {
  return title.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase());
}

export interface BundleGroup {
  bundleNumber: string;
  members: SubscriptionSummary[];
}

/** One place in the subscriptions' list: a bundle's group, or a subscription of no bundle. */
export type SubscriptionEntry =
  { kind: 'group'; group: BundleGroup } | { kind: 'single'; subscription: SubscriptionSummary };

/**
 * Subscriptions grouped by bundle number (master first), the rest single (§2 "Sections"), in the
 * order they come: a group stands where its first member does, so a list sorted newest first
 * (§2 "Sorting") stays so with its bundles in it.
 */
export function groupByBundle(subscriptions: SubscriptionSummary[]): SubscriptionEntry[] {
  const groups = new Map<string, BundleGroup>();
  const entries: SubscriptionEntry[] = [];
  for (const s of subscriptions) {
    if (!s.bundle) {
      entries.push({ kind: 'single', subscription: s });
      continue;
    }
    let group = groups.get(s.bundle.bundleNumber);
    if (!group) {
      group = { bundleNumber: s.bundle.bundleNumber, members: [] };
      groups.set(group.bundleNumber, group);
      entries.push({ kind: 'group', group });
    }
    group.members.push(s);
  }
  for (const group of groups.values())
    group.members.sort((a, b) => Number(isBundleMaster(b)) - Number(isBundleMaster(a)));
  return entries;
}
