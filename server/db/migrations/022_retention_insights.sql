-- Retention insights (docs/operators.md "Retention insights"): the studio's insights page and
-- `portal insights` count, per tenant and period, the flows that showed offers (offer_flow.started)
-- and what became of them (subscription.cancelled, offer.accepted), straight from account_events
-- (server/store/insightsStore.ts).
--
-- 1. The period's events of those three types, read by tenant, type and time. Partial: the other
--    types (most of the table) stay out of the index, which keeps it small and cheap to write.
--    `npm run bench` measures the query over a million events against a plain count of the same
--    rows (bench/insights.ts).
create index account_events_insights on account_events (tenant_id, type, created_at)
  where type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted');

-- 2. A flow is recorded once per subscription, flow and day (reloads must not inflate "started"):
--    the recorder looks for today's start of the subscription before writing one.
create index account_events_flow_starts on account_events (tenant_id, subject_id, created_at)
  where type = 'offer_flow.started';
