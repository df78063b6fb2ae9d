-- The change feed of the operator API (the changes subscribers made, as a feed the order system
-- can page through and acknowledge): GET /operator/v1/changes pages through the tenant's
-- account events; POST …/changes/<id>/acknowledgement confirms or rejects one.
--
-- 1. The feed's order. `seq` is drawn when an event is inserted, not when its transaction commits:
--    a change that takes longer can commit seq 10 after a reader already got seq 11 and moved its
--    cursor past 10, and the order system would never see that change. So the feed orders by the
--    inserting transaction's id (xid8, never wraps) and then seq, and hands out only events of
--    transactions older than the oldest one still running (pg_snapshot_xmin): every transaction
--    that could still commit an event has a larger id, so nothing can appear behind a cursor.
--    The price is a delay while a long transaction runs (a bulk import), never a lost event.
--    Existing rows get the id of this migration's transaction, ordered among themselves by seq.
alter table account_events add column xact_id xid8 not null default pg_current_xact_id();
create index account_events_feed on account_events (tenant_id, xact_id, seq);

-- 2. One acknowledgement per event: confirmed, or rejected with the reason per locale
--    ({"de-DE": "…", "en-GB": "…"}, one text per locale of the tenant, so the subscriber reads it
--    in the screen's language). Decided once: the same acknowledgement again is answered with this
--    row, a different one is refused (409). `key_id` is the API key that decided (no foreign key:
--    a key's rows may go, the decision stays). `rejection_event_id` is the change.rejected event
--    recorded with a rejection; `mail_locale` the language the subscriber was written to in.
create table change_acknowledgements (
  tenant_id          text        not null,
  event_id           uuid        not null,
  status             text        not null check (status in ('confirmed', 'rejected')),
  reason             jsonb,
  mail_locale        text,
  key_id             uuid,
  acknowledged_at    timestamptz not null,
  rejection_event_id uuid,
  primary key (tenant_id, event_id),
  check ((status = 'rejected') = (reason is not null)),
  foreign key (tenant_id, event_id) references account_events (tenant_id, id) on delete cascade
);
-- The subscriber's notices: the rejections of one account's changes, newest first.
create index change_acknowledgements_rejected on change_acknowledgements (tenant_id, acknowledged_at desc)
  where status = 'rejected';
