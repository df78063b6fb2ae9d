-- Who owns what (docs/going-live.md "Whose data is it"): the order system owns the records it
-- sends; a subscriber's change to such a record is the portal's pending change on top of the order
-- system's last record until the order system confirms or rejects it. The tables keep what the
-- portal shows (the order system's record with the pending changes applied), so every screen and
-- every rule reads one row; this table keeps the changes themselves, so that
--   - a rejection puts the order system's values back at once (revertOverlays),
--   - an upsert or import of the record writes the order system's record and puts the changes
--     still pending back on top of it (mergeStaged), instead of silently dropping them or keeping
--     a refused one.
--
-- A change is caught where it happens: a trigger on each order-system table records every write
-- that is not the order system's own (the merge, the delete and the revert set
-- `portal.order_system_write` to 'on' for their statements). One mechanism for every field a
-- subscriber can change, timed changes included, and none a feature can forget.
--
-- fields: the paths the portal wrote and their values; base: the order system's values at those
-- paths. A path is a column (`city`) or one key of a jsonb column (`details.addressLine1`), because
-- the portal and the order system both write parts of `details`. A value is [value], or [] for a
-- key that is absent. kind 'insert': a row the portal made (base {}); 'delete': a row the portal
-- removed (base: the whole row, to put back).
--
-- event_id: the account event of the change, linked when recordEvent runs in the change's
-- transaction (before or after the write), or named by `portal.change_event` (a timed change the
-- due-changes job applies later). base_version: the order system's version of the record when the
-- change was made; confirmed_version: its version when the change was confirmed. A confirmed change
-- (and a write no event speaks for) lasts until the order system sends a newer version than that:
-- its record then carries the change, or says otherwise, and either way it is the last word.
create table order_system_overlays (
  tenant_id         text        not null,
  id                bigserial,
  entity            text        not null,
  record_key        text        not null,
  xact_id           xid8        not null default pg_current_xact_id(),
  event_id          uuid,
  kind              text        not null check (kind in ('update', 'insert', 'delete')),
  fields            jsonb       not null default '{}',
  base              jsonb       not null default '{}',
  status            text        not null default 'pending' check (status in ('pending', 'confirmed')),
  base_version      bigint,
  confirmed_version bigint,
  created_at        timestamptz not null default now(),
  primary key (tenant_id, id)
);
create index order_system_overlays_record on order_system_overlays (tenant_id, entity, record_key);
create index order_system_overlays_event on order_system_overlays (tenant_id, event_id);
create index order_system_overlays_xact on order_system_overlays (xact_id) where event_id is null;

-- A dated address change waits in future_addresses; its event is what a rejection names.
alter table future_addresses add column event_id uuid;

create function overlay_wrap(value jsonb) returns jsonb
language sql immutable as $$
  select case when value is null then '[]'::jsonb else jsonb_build_array(value) end
$$;

-- The value at a path of a row (to_jsonb of the row).
create function overlay_read(row_json jsonb, path text) returns jsonb
language sql immutable as $$
  select case
    when position('.' in path) > 0 then overlay_wrap(
      case when jsonb_typeof(row_json -> split_part(path, '.', 1)) = 'object'
           then row_json -> split_part(path, '.', 1) -> substr(path, position('.' in path) + 1) end)
    else jsonb_build_array(row_json -> path)
  end
$$;

-- `t.a::text = 'x' and t.b::text = 'y'`: the row of a record key (parts joined by ~). char(n)
-- columns are compared without their padding.
create function overlay_key_condition(key_columns text[], record_key text) returns text
language sql immutable as $$
  select string_agg(format('rtrim(t.%I::text) = %L', c, split_part(record_key, '~', i::int)), ' and ')
    from unnest(key_columns) with ordinality as k(c, i)
$$;

-- Writes paths onto the row of a record.
create function overlay_apply(tbl regclass, tenant text, key_columns text[], record_key text, fields jsonb)
returns void language plpgsql as $$
declare
  entry record;
  plain jsonb := '{}';
  merges jsonb := '{}';
  removes jsonb := '{}';
  col text;
  sub text;
  sets text[] := '{}';
begin
  for entry in select key, value from jsonb_each(fields) loop
    if position('.' in entry.key) > 0 then
      col := split_part(entry.key, '.', 1);
      sub := substr(entry.key, position('.' in entry.key) + 1);
      if jsonb_array_length(entry.value) = 0 then
        removes := jsonb_set(removes, array[col], coalesce(removes -> col, '[]') || to_jsonb(sub));
      else
        merges := jsonb_set(merges, array[col], coalesce(merges -> col, '{}') || jsonb_build_object(sub, entry.value -> 0));
      end if;
    else
      plain := plain || jsonb_build_object(entry.key, entry.value -> 0);
    end if;
  end loop;
  for col in select jsonb_object_keys(plain) loop
    sets := sets || format('%I = r.%I', col, col);
  end loop;
  for col in select jsonb_object_keys(merges) union select jsonb_object_keys(removes) loop
    continue when plain ? col;
    sets := sets || format(
      '%I = (case when jsonb_typeof(t.%I) = ''object'' then t.%I else ''{}''::jsonb end || %L::jsonb) - array(select jsonb_array_elements_text(%L::jsonb))',
      col, col, col, coalesce(merges -> col, '{}'), coalesce(removes -> col, '[]'));
  end loop;
  if cardinality(sets) = 0 then return; end if;
  execute format('update %s t set %s from jsonb_populate_record(null::%s, $1) r where t.tenant_id = $2 and %s',
                 tbl, array_to_string(sets, ', '), tbl, overlay_key_condition(key_columns, record_key))
    using plain, tenant;
end;
$$;

create function overlay_delete_row(tbl regclass, tenant text, key_columns text[], record_key text)
returns void language plpgsql as $$
begin
  execute format('delete from %s t where t.tenant_id = $1 and %s', tbl, overlay_key_condition(key_columns, record_key))
    using tenant;
end;
$$;

-- Puts a removed row back (its columns as to_jsonb gave them; generated columns are computed again).
create function overlay_insert_row(tbl regclass, row_json jsonb)
returns void language plpgsql as $$
declare
  cols text;
begin
  select string_agg(quote_ident(attname), ', ' order by attnum) into cols
    from pg_attribute where attrelid = tbl and attnum > 0 and not attisdropped and attgenerated = '';
  execute format('insert into %s (%s) select %s from jsonb_populate_record(null::%s, $1) on conflict do nothing',
                 tbl, cols, cols, tbl)
    using row_json;
end;
$$;

-- The trigger: arguments entity, key columns, tracked columns, jsonb columns tracked by key.
create function capture_portal_change() returns trigger
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
begin
  select string_agg(rtrim(r ->> kc), '~' order by i) into rkey
    from unnest(key_columns) with ordinality as u(kc, i);
  foreach c in array tracked loop
    whole := whole || jsonb_build_object(c, jsonb_build_array(r -> c));
  end loop;
  if tg_op = 'UPDATE' then
    foreach c in array tracked loop
      if c = any(by_key) then
        for k in select jsonb_object_keys(
                   case when jsonb_typeof(o -> c) = 'object' then o -> c else '{}' end ||
                   case when jsonb_typeof(n -> c) = 'object' then n -> c else '{}' end) loop
          if (o -> c -> k) is distinct from (n -> c -> k) then
            changed := changed || jsonb_build_object(c || '.' || k, overlay_wrap(n -> c -> k));
            before := before || jsonb_build_object(c || '.' || k, overlay_wrap(o -> c -> k));
          end if;
        end loop;
      elsif (o -> c) is distinct from (n -> c) then
        changed := changed || jsonb_build_object(c, jsonb_build_array(n -> c));
        before := before || jsonb_build_object(c, jsonb_build_array(o -> c));
      end if;
    end loop;
    if changed = '{}' then return null; end if;
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

do $$
declare
  t record;
begin
  -- entity, table, key columns, columns of the record, jsonb columns tracked by key
  -- (server/operator/entities/orderSystemEntities.ts; tests/server/operator/ownership.int.test.ts
  -- checks the two agree).
  for t in select * from (values
    ('publications', 'publications', 'publication', 'publication,client_id,description,cover_image_url,current_issue', ''),
    ('issues', 'issues', 'publication,issue', 'publication,issue,issue_number,description,date_of_first_sale,date_of_first_shipping,translations', ''),
    ('business-partners', 'business_partners', 'bp_number', 'bp_number,salutation_code,first_name,last_name1,company1,street,street_number,zipcode,city,country_code,email_address,phone_number,date_of_birth,details', 'details'),
    ('subscriptions', 'subscriptions', 'id', 'id,order_number,publication,order_status,mix_type,bundle_number,cust_order_date,valid_from,valid_to,details', 'details'),
    ('payments', 'payment_history', 'subscription_id,id', 'subscription_id,id,date,amount,currency,invoice_status_code,invoice_number,external_document_number,document_id', ''),
    ('delivered-issues', 'delivered_issues', 'subscription_id,issue', 'subscription_id,issue,issue_number,description,date_of_first_sale,download_status,translations', ''),
    ('purchase-orders', 'purchase_orders', 'id', 'id,purchase_order_number,distribution_article_number,distribution_article_description,cover_image_url,date_of_purchase_order_client,quantity,invoice_status,invoice_number,download_status,package_info,details', 'details'),
    ('pending-orders', 'pending_orders', 'id', 'id,bp_number,source,title,order_number,article_number,order_date,cover_image_url,issue_number_from,download_url,download_is_file,translations', ''),
    ('cancellation-reasons', 'cancellation_reasons', 'publication,code', 'publication,code,position,descriptions', ''),
    ('offers', 'offers', 'id', 'id,publication,category,position,reasons,price,currency,payment_provider,offer,effect,voucher_pool', ''),
    ('licence-objects', 'license_objects', 'subscription_id,order_number', 'subscription_id,order_number,max_active_licenses,self_service_enabled', ''),
    ('licences', 'licenses', 'subscription_id,order_number,email', 'subscription_id,order_number,email,is_active,is_reactivatable,is_confirmed,business_partner,role,academic_year,created_at', ''),
    ('loyalty-tiers', 'loyalty_tiers', 'tier_code', 'tier_code,position,name,description,runtime_to_reach,reached_icon_url,locked_icon_url', ''),
    ('loyalty-rewards', 'loyalty_rewards', 'id', 'id,tier_code,position,name,description,icon_url,main_image_url,reward_type,claimable,target_url,consent', '')
  ) as v(entity, tbl, key_columns, tracked, by_key) loop
    -- WHEN keeps the order system's own writes (a million-row import) from calling the function at all.
    execute format(
      'create trigger %I after insert or update or delete on %I for each row
         when (current_setting(''portal.order_system_write'', true) is distinct from ''on'')
         execute function capture_portal_change(%L, %L, %L, %L)',
      t.tbl || '_portal_change', t.tbl, t.entity, t.key_columns, t.tracked, t.by_key);
  end loop;
end;
$$;

-- After the order system wrote its record anew (mergeStaged): each change still standing gets the
-- order system's new values as its base and is put back on top, oldest first. A change the portal
-- made to a row the order system now sends becomes an update of that row; a row the portal
-- removed is removed again.
create function overlay_reapply(tbl regclass, tenant text, entity_name text, key_columns text[], rkey text)
returns void language plpgsql as $$
declare
  row_json jsonb;
  o record;
begin
  execute format('select to_jsonb(t) from %s t where t.tenant_id = $1 and %s', tbl, overlay_key_condition(key_columns, rkey))
    into row_json using tenant;
  if row_json is null then return; end if;
  for o in select * from order_system_overlays
            where tenant_id = tenant and entity = entity_name and record_key = rkey order by id loop
    if o.kind = 'delete' then
      update order_system_overlays set base = row_json where tenant_id = tenant and id = o.id;
      perform overlay_delete_row(tbl, tenant, key_columns, rkey);
      return;
    end if;
    update order_system_overlays
       set kind = 'update',
           base = (select coalesce(jsonb_object_agg(p, overlay_read(row_json, p)), '{}') from jsonb_object_keys(o.fields) p)
     where tenant_id = tenant and id = o.id;
    perform overlay_apply(tbl, tenant, key_columns, rkey, o.fields);
  end loop;
end;
$$;
