import type { SubscriptionSummary } from '../../account/types';
import { isSuspendedWithEndDate } from '../../domain/capabilityRule';
import { offersRenewal } from '../../domain/cardCapabilities';
import type { CapabilityContext } from '../../domain/capabilityRule';
import { hasEnded } from '../../domain/orderStatus';
import { addDays, compareIso } from '../../domain/dates';

/**
 * The orders page's summary at the top (next payment, next issue, anything needing
 * attention), from the subscriptions the page has loaded anyway. The portal has
 * no payment schedule of its own; the next date that costs or changes something is a
 * subscription's renewal or end, so that is what the summary names.
 */
export interface OrdersSummary {
  nextIssue?: { subscription: SubscriptionSummary; issue: NonNullable<SubscriptionSummary['nextIssue']> };
  nextEnd?: { subscription: SubscriptionSummary; date: string };
  attention: AttentionItem[];
  /** Names two running subscriptions share (two print subscriptions of one title): said with their order numbers. */
  sharedNames: ReadonlySet<string>;
}

export type AttentionItem =
  | { kind: 'renew'; subscription: SubscriptionSummary; date: string }
  | { kind: 'cancelled'; subscription: SubscriptionSummary; date: string }
  | { kind: 'paused'; subscription: SubscriptionSummary; date: string };

/** Renewal offers are pointed out this many days before a subscription ends. */
export const RENEWAL_NOTICE_DAYS = 60;

export function ordersSummary(
  subscriptions: readonly SubscriptionSummary[],
  ctx: CapabilityContext,
  today: string,
): OrdersSummary {
  const running = subscriptions.filter((s) => !hasEnded(s.orderStatus));
  const byDate = <T>(items: T[], date: (item: T) => string) =>
    [...items].sort((a, b) => compareIso(date(a), date(b)));

  const withIssue = running.filter(
    (s) => s.nextIssue?.dateOfFirstSale && s.nextIssue.dateOfFirstSale >= today,
  );
  const first = byDate(withIssue, (s) => s.nextIssue!.dateOfFirstSale!)[0];

  const ending = running.filter((s) => s.validToOnSaleDate && s.validToOnSaleDate >= today);
  const soonest = byDate(ending, (s) => s.validToOnSaleDate!)[0];

  const attention: AttentionItem[] = [];
  for (const s of ending) {
    const date = s.validToOnSaleDate!;
    if (s.orderStatus === 'AK') attention.push({ kind: 'cancelled', subscription: s, date });
    else if (date <= addDays(today, RENEWAL_NOTICE_DAYS) && offersRenewal(s, ctx))
      attention.push({ kind: 'renew', subscription: s, date });
  }
  for (const s of running) {
    if (isSuspendedWithEndDate(s))
      attention.push({ kind: 'paused', subscription: s, date: s.currentSuspension!.suspendedToDate! });
  }

  const seen = new Set<string>();
  const sharedNames = new Set<string>();
  for (const s of running) (seen.has(s.displayName) ? sharedNames : seen).add(s.displayName);

  return {
    sharedNames,
    nextIssue: first ? { subscription: first, issue: first.nextIssue! } : undefined,
    nextEnd: soonest ? { subscription: soonest, date: soonest.validToOnSaleDate! } : undefined,
    attention: byDate(attention, (item) => item.date),
  };
}
