-- A version number per tenant for the data GET /subscriptions answers from, so the API keeps up
-- under load. Every committed change to one of the six tables that answer reads raises
-- its tenant's version in the same transaction, so a server may keep a user's answer in memory and
-- reuse it while the version it reads together with the session is unchanged
-- (server/subscription/subscriptionListCache.ts). The version lives in the database, not in a
-- server: a change made through one instance is seen by the next request on every other one
-- (docs/architecture.md "Running more than one instance").
--
-- The triggers are deferred to the commit: a version row is locked only in the last moment of a
-- transaction, after every other lock it takes, and becomes visible together with the data. A
-- transaction of one tenant therefore cannot deadlock on it; one that changes several tenants locks
-- their versions in tenant order before it commits (lockSubscriptionDataVersions in
-- server/store/subscriptionStore.ts, used by the due-changes job). A transaction raises each
-- tenant's version once, however many rows it changes (portal.raised_versions, local to it).
-- A database restored from a backup may bring back an older version: restart the servers after a
-- restore (docs/architecture.md "Running more than one instance").
create table subscription_data_versions (
  tenant_id text   primary key,
  version   bigint not null
);

create function raise_subscription_data_version() returns trigger
language plpgsql as $$
declare
  changed_tenant text;
  raised text;
begin
  if tg_op = 'TRUNCATE' then
    update subscription_data_versions set version = version + 1;
    return null;
  end if;
  -- A row moved to another tenant changes both tenants' data.
  foreach changed_tenant in array case
    when tg_op = 'DELETE' then array[old.tenant_id]
    when tg_op = 'UPDATE' and old.tenant_id is distinct from new.tenant_id then array[old.tenant_id, new.tenant_id]
    else array[new.tenant_id]
  end loop
    raised := coalesce(current_setting('portal.raised_versions', true), '');
    continue when position(E'\n' || changed_tenant || E'\n' in raised) > 0;
    insert into subscription_data_versions (tenant_id, version) values (changed_tenant, 1)
      on conflict (tenant_id) do update set version = subscription_data_versions.version + 1;
    perform set_config('portal.raised_versions', raised || E'\n' || changed_tenant || E'\n', true);
  end loop;
  return null;
end;
$$;

do $$
declare
  t text;
begin
  foreach t in array array['subscriptions', 'subscription_roles', 'business_partners', 'user_business_partners', 'publications', 'issues'] loop
    execute format('create constraint trigger %I after insert or update or delete on %I deferrable initially deferred for each row execute function raise_subscription_data_version()', t || '_data_version', t);
    execute format('create trigger %I after truncate on %I for each statement execute function raise_subscription_data_version()', t || '_data_version_truncate', t);
  end loop;
end;
$$;

insert into subscription_data_versions (tenant_id, version)
  select distinct tenant_id, 1 from subscriptions
  on conflict do nothing;
