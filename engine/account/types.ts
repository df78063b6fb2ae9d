/** The subscription as GET /api/subscriptions returns it (portal-core.md §3), generated from schemas/api. */
export type { Subscription as SubscriptionSummary } from '../../schemas/generated/subscription';
