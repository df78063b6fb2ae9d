-- Webhook endpoints that answered 410 Gone (a 410 answer disables the endpoint; the
-- Standard Webhooks spec: the receiver "is no longer interested in receiving webhooks from this
-- source", so the sender disables the endpoint and stops sending it messages).
--
-- An endpoint is its URL within a tenant, as in webhook_deliveries (the tenant file has no other
-- id for it), so a tenant file that names a new URL has a new endpoint, which is not disabled.
-- While a row is here the deliverer (server/events/webhookDeliverer.ts) attempts nothing for the
-- endpoint: its pending deliveries, and those of later events, are failed with a note that names
-- this row. `portal webhooks enable <tenant> <url>` deletes the row (the deliveries of later events
-- go out again); `portal events` lists the rows. Kept in the database, not in memory, so every
-- instance stops at once and a restart does not forget it.
create table webhook_disabled_endpoints (
  tenant_id    text        not null,
  endpoint_url text        not null,
  disabled_at  timestamptz not null default now(),
  status       integer     not null,   -- the answer that disabled it (410)
  event_id     uuid        not null,   -- the event whose delivery got that answer
  primary key (tenant_id, endpoint_url)
);
