-- Account events and their webhook deliveries (docs/going-live.md "Account events and webhooks").
--
-- 1. Every change a subscriber makes writes one row here in the same transaction as the change
--    (server/events/recordEvent.ts), so a change that rolls back leaves no event and a committed
--    change always has one. `id` is a random UUID chosen by the server: the idempotency id a
--    receiver sees in the body and in the webhook-id header. `seq` orders events for the
--    deliverer and the listing. `dispatched_at` is set once the deliverer has written the event's
--    delivery rows (one per matching endpoint of the tenant file at that moment).
create table account_events (
  tenant_id     text        not null,
  id            uuid        not null,
  seq           bigint      generated always as identity,
  type          text        not null,
  user_id       text,                     -- the account that made the change (null: an anonymous visitor)
  subject_type  text        not null,     -- account, subscription, purchase_order, contact_message, business_partner
  subject_id    text        not null,
  data          jsonb       not null,     -- the `data` of the webhook body (schemas/api/account-event.schema.json)
  created_at    timestamptz not null default now(),
  dispatched_at timestamptz,
  primary key (tenant_id, id)
);
create index account_events_undispatched on account_events (seq) where dispatched_at is null;
create index account_events_listing on account_events (tenant_id, seq desc);

-- 2. One row per event and endpoint (the endpoint is its URL, unique per tenant file). The primary
--    key makes a second delivery row for the same pair impossible, whichever instance dispatches.
--    The background deliverer (server/events/webhookDeliverer.ts) claims due rows with
--    `for update skip locked` and a lease (claim_token, claimed_until), as the mail queue does
--    (migration 005): one attempt at a time per event and endpoint across instances, and a lease
--    left by a crashed instance runs out and the row is taken again. attempts counts claims.
create table webhook_deliveries (
  tenant_id       text        not null,
  event_id        uuid        not null,
  endpoint_url    text        not null,
  state           text        not null default 'pending'
                  check (state in ('pending', 'delivered', 'failed')),
  attempts        integer     not null default 0,
  next_attempt_at timestamptz not null default now(),
  claim_token     text,
  claimed_until   timestamptz,
  last_status     integer,                -- HTTP status of the last answer (null: no answer)
  last_error      text,
  last_attempt_at timestamptz,
  created_at      timestamptz not null default now(),
  done_at         timestamptz,
  primary key (tenant_id, event_id, endpoint_url),
  foreign key (tenant_id, event_id) references account_events (tenant_id, id) on delete cascade
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';
