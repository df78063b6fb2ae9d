-- 052_retention_rejected_outcomes: a cancellation or an offer's acceptance the order system
-- rejected did not happen, so the retention insights do not count it (server/store/insightsStore.ts
-- reads only outcomes without a rejection). A rejection arrives after the event, perhaps after the
-- days its flows belong to were summed (migration 032): like a late event, it makes the summary
-- forget those days, in the rejection's transaction, and the next round sums them anew.
create function retention_summary_rejected() returns trigger
language plpgsql as $$
declare
  made_at timestamptz;
begin
  select e.created_at into made_at
    from account_events e
   where e.tenant_id = new.tenant_id and e.id = new.event_id
     and e.type in ('subscription.cancelled', 'offer.accepted');
  if found then
    perform retention_summary_forget(new.tenant_id, made_at);
  end if;
  return null;
end;
$$;

create trigger change_acknowledgements_retention_rejected after insert on change_acknowledgements
  for each row when (new.status = 'rejected')
  execute function retention_summary_rejected();
