/** Offer classification M means membership (portal-core.md §9 "Offer classification"). */
export function isMembership(subscription: {
  renewal?: { offerClassification?: string | null } | null;
}): boolean {
  return subscription.renewal?.offerClassification === 'M';
}
