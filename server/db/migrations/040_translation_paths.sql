-- One word in one language is one path of a change (docs/going-live.md "Whose data is it"). A
-- subscription's `details.translations` (per language, the words of its other details keys) was
-- recorded whole: while a change of the subscriber's was pending (a renewal, an upgrade, which word
-- the subscription anew), the translations the portal showed were those of the change's time, so a
-- product the order system renamed in another language meanwhile kept its old name there until the
-- change was answered, and a rejection took back words a later change had set. An object of objects
-- (overlay_nested_object) is now recorded per inner key: `details.translations/en-GB/displayName`,
-- with the word as its value ([] when absent).
--
-- The kinds of path are told apart in three functions only, so that the next kind changes these and
-- not the trigger or overlay_apply again: overlay_key_diff (what a write changed), overlay_read (the
-- value at a path) and overlay_put_paths (a column's value with paths written in).

create function overlay_nested_object(object_key text) returns boolean
language sql immutable as $$
  select object_key = 'translations'
$$;

create function overlay_object(value jsonb) returns jsonb
language sql immutable as $$
  select case when jsonb_typeof(value) = 'object' then value else '{}'::jsonb end
$$;

-- The inner values that differ between two versions of an object of objects, as paths
-- `prefix/outer/inner`: their new values (changed) and their old ones (before).
create function overlay_nested_diff(prefix text, old_object jsonb, new_object jsonb)
returns table (new_values jsonb, old_values jsonb)
language sql immutable as $$
  select coalesce(jsonb_object_agg(prefix || '/' || p.outer_key || '/' || p.inner_key, overlay_wrap(p.new_value)), '{}'),
         coalesce(jsonb_object_agg(prefix || '/' || p.outer_key || '/' || p.inner_key, overlay_wrap(p.old_value)), '{}')
    from (select o.outer_key, i.inner_key,
                 overlay_object(overlay_object(old_object) -> o.outer_key) -> i.inner_key as old_value,
                 overlay_object(overlay_object(new_object) -> o.outer_key) -> i.inner_key as new_value
            from (select jsonb_object_keys(overlay_object(old_object)) as outer_key
                  union select jsonb_object_keys(overlay_object(new_object))) o
            cross join lateral (
                  select jsonb_object_keys(overlay_object(overlay_object(old_object) -> o.outer_key)) as inner_key
                  union select jsonb_object_keys(overlay_object(overlay_object(new_object) -> o.outer_key))) i) p
   where p.old_value is distinct from p.new_value
$$;

-- An object of objects with inner values put in ({outer: {inner: [value] or []}}): an inner object
-- the puts leave empty goes, and an object that was absent stays absent (null) when nothing is left.
create function overlay_put_nested(object jsonb, puts jsonb) returns jsonb
language sql immutable as $$
  select case when r.result = '{}'::jsonb and jsonb_typeof(object) is distinct from 'object' then null else r.result end
    from (select coalesce(jsonb_object_agg(x.k, x.v), '{}'::jsonb) as result
            from (select e.key as k, e.value as v
                    from jsonb_each(overlay_object(object)) e
                   where not puts ? e.key
                  union all
                  select p.key,
                         (overlay_object(overlay_object(object) -> p.key)
                          || (select coalesce(jsonb_object_agg(f.key, f.value -> 0), '{}'::jsonb)
                                from jsonb_each(p.value) f where jsonb_array_length(f.value) > 0))
                         - array(select f.key from jsonb_each(p.value) f where jsonb_array_length(f.value) = 0)
                    from jsonb_each(puts) p) x
           where x.v <> '{}'::jsonb or not puts ? x.k) r
$$;

-- What one key of a jsonb column tracked by key changed between two versions, as paths.
create function overlay_key_diff(prefix text, object_key text, old_value jsonb, new_value jsonb)
returns table (new_values jsonb, old_values jsonb)
language plpgsql immutable as $$
begin
  if overlay_typed_list(object_key) then
    return query select d.new_values, d.old_values from overlay_list_diff(prefix, old_value, new_value) d;
  elsif overlay_nested_object(object_key) then
    return query select d.new_values, d.old_values from overlay_nested_diff(prefix, old_value, new_value) d;
  elsif old_value is distinct from new_value then
    return query select jsonb_build_object(prefix, overlay_wrap(new_value)), jsonb_build_object(prefix, overlay_wrap(old_value));
  else
    return query select '{}'::jsonb, '{}'::jsonb;
  end if;
end;
$$;

-- The value at a path of a row (to_jsonb of the row): a column, a key of a jsonb column, an element
-- of a typed list (`key#type`) or an inner value of an object of objects (`key/outer/inner`).
create or replace function overlay_read(row_json jsonb, path text) returns jsonb
language plpgsql immutable as $$
declare
  col jsonb;
  sub text;
begin
  if position('.' in path) = 0 then return jsonb_build_array(row_json -> path); end if;
  col := overlay_object(row_json -> split_part(path, '.', 1));
  sub := substr(path, position('.' in path) + 1);
  if position('#' in sub) > 0 and overlay_typed_list(split_part(sub, '#', 1)) then
    return overlay_list_element(col -> split_part(sub, '#', 1), substr(sub, position('#' in sub) + 1));
  elsif position('/' in sub) > 0 and overlay_nested_object(split_part(sub, '/', 1)) then
    return overlay_wrap(overlay_object(overlay_object(col -> split_part(sub, '/', 1)) -> split_part(sub, '/', 2))
                        -> split_part(sub, '/', 3));
  end if;
  return overlay_wrap(col -> sub);
end;
$$;

-- A jsonb column's value with paths written in ({sub-path: [value] or []}, sub-paths as overlay_read's).
create function overlay_put_paths(column_value jsonb, puts jsonb) returns jsonb
language plpgsql immutable as $$
declare
  result jsonb := overlay_object(column_value);
  entry record;
  object_key text;
  lists jsonb := '{}';
  nested jsonb := '{}';
  put jsonb;
begin
  for entry in select key, value from jsonb_each(puts) loop
    if position('#' in entry.key) > 0 and overlay_typed_list(split_part(entry.key, '#', 1)) then
      object_key := split_part(entry.key, '#', 1);
      lists := lists || jsonb_build_object(object_key, coalesce(lists -> object_key, '{}')
               || jsonb_build_object(substr(entry.key, position('#' in entry.key) + 1), entry.value));
    elsif position('/' in entry.key) > 0 and overlay_nested_object(split_part(entry.key, '/', 1)) then
      object_key := split_part(entry.key, '/', 1);
      nested := jsonb_set(nested, array[object_key], coalesce(nested -> object_key, '{}'));
      nested := jsonb_set(nested, array[object_key, split_part(entry.key, '/', 2)],
                          coalesce(nested -> object_key -> split_part(entry.key, '/', 2), '{}')
                          || jsonb_build_object(split_part(entry.key, '/', 3), entry.value));
    elsif jsonb_array_length(entry.value) = 0 then
      result := result - entry.key;
    else
      result := result || jsonb_build_object(entry.key, entry.value -> 0);
    end if;
  end loop;
  for object_key in select jsonb_object_keys(lists) loop
    result := jsonb_set(result, array[object_key], overlay_put_list_elements(result -> object_key, lists -> object_key));
  end loop;
  for object_key in select jsonb_object_keys(nested) loop
    put := overlay_put_nested(result -> object_key, nested -> object_key);
    result := case when put is null then result - object_key else jsonb_set(result, array[object_key], put) end;
  end loop;
  return result;
end;
$$;

create or replace function overlay_apply(tbl regclass, tenant text, key_columns text[], record_key text, fields jsonb)
returns void language plpgsql as $$
declare
  entry record;
  plain jsonb := '{}';
  by_column jsonb := '{}';
  col text;
  sets text[] := '{}';
begin
  for entry in select key, value from jsonb_each(fields) loop
    if position('.' in entry.key) > 0 then
      col := split_part(entry.key, '.', 1);
      by_column := by_column || jsonb_build_object(col, coalesce(by_column -> col, '{}')
                   || jsonb_build_object(substr(entry.key, position('.' in entry.key) + 1), entry.value));
    else
      plain := plain || jsonb_build_object(entry.key, entry.value -> 0);
    end if;
  end loop;
  for col in select jsonb_object_keys(plain) loop
    sets := sets || format('%I = r.%I', col, col);
  end loop;
  for col in select jsonb_object_keys(by_column) loop
    continue when plain ? col;
    sets := sets || format('%I = overlay_put_paths(t.%I, %L::jsonb)', col, col, by_column -> col);
  end loop;
  if cardinality(sets) = 0 then return; end if;
  execute format('update %s t set %s from jsonb_populate_record(null::%s, $1) r where t.tenant_id = $2 and %s',
                 tbl, array_to_string(sets, ', '), tbl, overlay_key_condition(key_columns, record_key))
    using plain, tenant;
end;
$$;

-- As in migration 039, with each key of a jsonb column tracked by key judged by overlay_key_diff.
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

-- The changes pending or confirmed now, from the whole object to one path per word.
update order_system_overlays o
   set fields = (o.fields - 'details.translations') || d.new_values,
       base = (o.base - 'details.translations') || d.old_values
  from order_system_overlays x
  cross join lateral overlay_nested_diff('details.translations',
                                         x.base -> 'details.translations' -> 0,
                                         x.fields -> 'details.translations' -> 0) d
 where x.tenant_id = o.tenant_id and x.id = o.id
   and o.kind = 'update' and o.fields ? 'details.translations';
