/** The fields of a subscription (portal-core.md §3) the orders page shows. */
export interface SubscriptionSummary {
  id: string;
  orderNumber: string;
  displayName: string;
  publication: string;
  publicationName: string;
  orderStatus: string;
  coverImageUrl?: string | null;
  validFromOnSaleDate?: string | null;
  validToOnSaleDate?: string | null;
  custOrderDate?: string | null;
}
