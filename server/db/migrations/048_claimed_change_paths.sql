-- A change is what the subscriber sent, not only what differed from the row: an address change
-- that moves claims every field of where to live (server/address-change/addressChangeService.ts),
-- so rejecting an earlier change of the street after it leaves the street it sent, not the order
-- system's street under its city (docs/going-live.md "Whose data is it"). The writer names the
-- paths in `portal.claimed_paths` as `<entity>:<path>,<path>` for its statement
-- (server/store/orderSystemOverlays.ts claimingPaths); a path already differing is recorded as
-- before. As in migration 040 otherwise.
create or replace function capture_portal_change() returns trigger
language plpgsql as $$
declare
  entity_name text := tg_argv[0];
  key_columns text[] := string_to_array(tg_argv[1], ',');
  tracked text[] := string_to_array(tg_argv[2], ',');
  by_key text[] := string_to_array(tg_argv[3], ',');
  o jsonb := case when tg_op <> 'INSERT' then to_jsonb(old) end;
  n jsonb := case when tg_op <> 'DELETE' then to_jsonb(new) end;
  r jsonb := coalesce(n, o);
  tenant text := r ->> 'tenant_id';
  rkey text;
  changed jsonb := '{}';
  before jsonb := '{}';
  whole jsonb := '{}';
  c text;
  k text;
  earlier record;
  same_xact record;
  event uuid := nullif(current_setting('portal.change_event', true), '')::uuid;
  confirmed boolean := false;
  stored_version bigint;
  claimed text := current_setting('portal.claimed_paths', true);
  p text;
begin
  select string_agg(rtrim(r ->> kc), '~' order by i) into rkey
    from unnest(key_columns) with ordinality as u(kc, i);
  foreach c in array tracked loop
    whole := whole || jsonb_build_object(c, jsonb_build_array(r -> c));
  end loop;
  if tg_op = 'UPDATE' then
    foreach c in array tracked loop
      if c = any(by_key) then
        for k in select jsonb_object_keys(overlay_object(o -> c) || overlay_object(n -> c)) loop
          select changed || d.new_values, before || d.old_values into changed, before
            from overlay_key_diff(c || '.' || k, k, o -> c -> k, n -> c -> k) d;
        end loop;
      elsif (o -> c) is distinct from (n -> c) then
        changed := changed || jsonb_build_object(c, jsonb_build_array(n -> c));
        before := before || jsonb_build_object(c, jsonb_build_array(o -> c));
      end if;
    end loop;
    if changed = '{}' then return null; end if;
    -- The paths the change claims whole (portal.claimed_paths) are the change's even where its
    -- value is the one the row had.
    if starts_with(claimed, entity_name || ':') then
      foreach p in array string_to_array(substr(claimed, length(entity_name) + 2), ',') loop
        if not changed ? p and (p = any(tracked) or split_part(p, '.', 1) = any(by_key)) then
          changed := changed || jsonb_build_object(p, overlay_read(n, p));
          before := before || jsonb_build_object(p, overlay_read(o, p));
        end if;
      end loop;
    end if;
    -- The order system's value of a path another change holds already is that change's base.
    for earlier in select base from order_system_overlays
                    where tenant_id = tenant and entity = entity_name and record_key = rkey and kind = 'update'
                    order by id desc loop
      before := before || (select coalesce(jsonb_object_agg(key, value), '{}') from jsonb_each(earlier.base) where before ? key);
    end loop;
  end if;

  select * into same_xact from order_system_overlays
   where tenant_id = tenant and entity = entity_name and record_key = rkey
     and xact_id = pg_current_xact_id() and event_id is not distinct from event
   order by id desc limit 1;
  if found and same_xact.kind = 'insert' and tg_op = 'UPDATE' then
    update order_system_overlays set fields = whole where tenant_id = tenant and id = same_xact.id;
    return null;
  end if;
  if found and same_xact.kind = 'insert' and tg_op = 'DELETE' then
    -- Made and removed again by the portal: nothing of the order system's changed.
    delete from order_system_overlays where tenant_id = tenant and id = same_xact.id;
    return null;
  end if;
  if found and same_xact.kind = 'update' and tg_op = 'UPDATE' then
    update order_system_overlays set fields = fields || changed, base = before || base where tenant_id = tenant and id = same_xact.id;
    return null;
  end if;

  select version into stored_version from order_system_versions
   where tenant_id = tenant and entity = entity_name and record_key = rkey and not deleted;
  if event is not null then
    select a.status = 'confirmed' into confirmed from change_acknowledgements a
     where a.tenant_id = tenant and a.event_id = event;
  end if;
  insert into order_system_overlays (tenant_id, entity, record_key, event_id, kind, fields, base, status, base_version, confirmed_version)
  values (tenant, entity_name, rkey, event,
          lower(tg_op),
          case tg_op when 'UPDATE' then changed when 'INSERT' then whole else '{}' end,
          case tg_op when 'UPDATE' then before when 'DELETE' then o else '{}' end,
          case when coalesce(confirmed, false) then 'confirmed' else 'pending' end,
          stored_version,
          case when coalesce(confirmed, false) then stored_version end);
  return null;
end;
$$;
