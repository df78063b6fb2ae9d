/** The orders page's lists (portal-core.md §2 "Orders page"): their order, search and bundle groups. */
import { isBundleMaster } from '../../domain/capabilityRule';
import type { SubscriptionSummary } from '../../account/types';

/** §2 "Orders page": subscriptions sorted by order date, newest first. */
export function sortByOrderDateDesc(subscriptions: SubscriptionSummary[]): SubscriptionSummary[] {
  return [...subscriptions].sort((a, b) => (b.custOrderDate ?? '').localeCompare(a.custOrderDate ?? ''));
}

/** §2: the search box is a case-insensitive filter on titles. */
export function matchesTitle(title: string, query: string): boolean {
  return title.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase());
}

export interface BundleGroup {
  bundleNumber: string;
  members: SubscriptionSummary[];
}

/** Subscriptions grouped by bundle number (master first), the rest flat (§2 "Sections"). */
export function groupByBundle(subscriptions: SubscriptionSummary[]): {
  groups: BundleGroup[];
  flat: SubscriptionSummary[];
} {
  const groups = new Map<string, SubscriptionSummary[]>();
  const flat: SubscriptionSummary[] = [];
  for (const s of subscriptions) {
    if (!s.bundle) flat.push(s);
    else groups.set(s.bundle.bundleNumber, [...(groups.get(s.bundle.bundleNumber) ?? []), s]);
  }
  return {
    groups: [...groups].map(([bundleNumber, members]) => ({
      bundleNumber,
      members: [...members].sort((a, b) => Number(isBundleMaster(b)) - Number(isBundleMaster(a))),
    })),
    flat,
  };
}
