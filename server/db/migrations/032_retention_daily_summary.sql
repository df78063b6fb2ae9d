-- The retention insights' daily summary (docs/operators.md "Retention insights", "Speed"): per tenant
-- and UTC day, the counts of the flows started that day, by every key the insights group by, so a
-- year's answer adds up about 365 days of rows instead of matching 200,000 flows with their
-- outcomes (server/store/insightsStore.ts, flowCounts). Counts only: ids, reason codes and prices,
-- no account, no contact data (server/insights/personalData.ts).
--
-- What a day holds is final once every flow of it is closed: a flow's outcome is read from the
-- ATTRIBUTION_DAYS (14) after its start, and a later start of the same subscription and flow in
-- that time takes the outcomes after it. Day D therefore depends only on the three counted event
-- types with created_at in [D, D + 15 days), and the job (server/jobs/retentionSummary.ts) sums a
-- day only once that time is over. What it summed is what the events said then; an event of those
-- days written late, deleted (housekeeping's 400 days, a deleted account) or changed makes the sum
-- wrong, so the triggers below forget the days it touches, in the same transaction, and the reader
-- counts them live again until the job sums them anew.

-- 1. The days summed: a day without its row here is counted from the events.
create table retention_summary_days (
  tenant_id     text        not null,
  day           date        not null,
  summarised_at timestamptz not null default now(),
  primary key (tenant_id, day)
);

-- 2. Per day the flows started, by flow, publication, reason ('' for none), experiment and variant:
--    started, offers shown, accepted and paid, cancelled, kept (a closed flow without a
--    cancellation, or with an accepted offer for renewal and upgrade).
create table retention_daily_flows (
  tenant_id    text    not null,
  day          date    not null,
  flow         text,
  publication  text,
  reason       text    not null,
  experiment   text,
  variant      text,
  started      integer not null,
  offers_shown integer not null,
  accepted     integer not null,
  cancelled    integer not null,
  kept         integer not null,
  foreign key (tenant_id, day) references retention_summary_days on delete cascade
);
create index retention_daily_flows_day on retention_daily_flows (tenant_id, day);

-- 3. Revenue kept of the same flows, per currency: sums of numeric, so adding days up gives the
--    same amount as adding the offers' prices.
create table retention_daily_revenue (
  tenant_id   text    not null,
  day         date    not null,
  flow        text,
  publication text,
  reason      text    not null,
  experiment  text,
  variant     text,
  currency    text,
  amount      numeric not null,
  foreign key (tenant_id, day) references retention_summary_days on delete cascade
);
create index retention_daily_revenue_day on retention_daily_revenue (tenant_id, day);

-- 4. Forgetting the days an event touches: an event at t belongs to the windows of the flows
--    started in (t - 14 days, t], the days day(t) - 14 to day(t). The job sums a tenant's days
--    holding this lock exclusively (server/store/retentionSummaryStore.ts, lockSummary); a
--    writer takes it shared before it forgets, and both hold it to their commit. So either the
--    writer's event committed before the job read the events, or the job's rows committed before
--    the writer looks for them: a summed day never misses an event. Only writes of the three
--    counted types take it; a live event of today touches no summed day (the last 14 days never
--    are), so its delete finds nothing.
create function retention_summary_forget(tenant text, at timestamptz) returns void
language plpgsql as $$
begin
  perform pg_advisory_xact_lock_shared(727150032, hashtext(tenant));
  delete from retention_summary_days
   where tenant_id = tenant
     and day between (at at time zone 'UTC')::date - 14 and (at at time zone 'UTC')::date;
end;
$$;

-- Events are written one at a time (server/events/recordEvent.ts): a row trigger, whose `when`
-- leaves every other type alone, costs a writer less than a statement trigger reading its
-- transition table (bench/insights.ts measures the write with and without it).
create function retention_summary_inserted() returns trigger
language plpgsql as $$
begin
  perform retention_summary_forget(new.tenant_id, new.created_at);
  return null;
end;
$$;

-- Deletes come in bulk (housekeeping): once per statement, each tenant locked once (in order) and
-- its touched days deleted in one go.
create function retention_summary_deleted() returns trigger
language plpgsql as $$
begin
  perform pg_advisory_xact_lock_shared(727150032, hashtext(t.tenant_id))
     from (select distinct tenant_id from deleted
            where type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted')
            order by tenant_id) t;
  delete from retention_summary_days d
   using (select distinct tenant_id, (created_at at time zone 'UTC')::date as day from deleted
           where type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted')) e
   where d.tenant_id = e.tenant_id and d.day between e.day - 14 and e.day;
  return null;
end;
$$;

-- An update of what the insights read (not the deliverer's dispatched_at) forgets the old and the
-- new event's days.
create function retention_summary_updated() returns trigger
language plpgsql as $$
begin
  perform retention_summary_forget(old.tenant_id, old.created_at);
  perform retention_summary_forget(new.tenant_id, new.created_at);
  return null;
end;
$$;

create function retention_summary_truncated() returns trigger
language plpgsql as $$
begin
  delete from retention_summary_days;
  return null;
end;
$$;

create trigger account_events_retention_inserted after insert on account_events for each row
  when (new.type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted'))
  execute function retention_summary_inserted();
create trigger account_events_retention_deleted after delete on account_events
  referencing old table as deleted for each statement execute function retention_summary_deleted();
create trigger account_events_retention_updated
  after update of tenant_id, type, subject_id, data, created_at on account_events for each row
  when (old.type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted')
        or new.type in ('offer_flow.started', 'subscription.cancelled', 'offer.accepted'))
  execute function retention_summary_updated();
create trigger account_events_retention_truncated after truncate on account_events
  for each statement execute function retention_summary_truncated();
