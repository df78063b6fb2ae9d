-- One order attribute is one path of a change (docs/going-live.md "Whose data is it"). Until now a
-- subscriber's change of one attribute was recorded as the whole list `details.orderAttributes`, so
-- while it was pending the list the portal showed was the one of the change's time: attributes the
-- order system sent in a newer record were hidden behind it (one it had changed showed its old
-- value), and a rejection of one change took back the attributes a later change had set too. A list
-- whose elements are told apart by their `type` (overlay_typed_list) is now recorded per element:
-- `details.orderAttributes#KOSTENSTELLE`, with the element as its value ([] when absent), read,
-- applied and put back on top of a newer record like any other path.

create function overlay_typed_list(list_key text) returns boolean
language sql immutable as $$
  select list_key = 'orderAttributes'
$$;

create function overlay_list(value jsonb) returns jsonb
language sql immutable as $$
  select case when jsonb_typeof(value) = 'array' then value else '[]'::jsonb end
$$;

-- The element of a typed list with the given type: [element], or [] when the list has none.
create function overlay_list_element(list jsonb, element_type text) returns jsonb
language sql immutable as $$
  select overlay_wrap((select e from jsonb_array_elements(overlay_list(list)) with ordinality as l(e, i)
                        where e ->> 'type' = element_type order by i limit 1))
$$;

-- The elements whose value differs between two versions of a typed list, as paths `prefix#type`:
-- their new values (changed) and their old ones (before).
create function overlay_list_diff(prefix text, old_list jsonb, new_list jsonb)
returns table (new_values jsonb, old_values jsonb)
language sql immutable as $$
  select coalesce(jsonb_object_agg(prefix || '#' || t, overlay_list_element(new_list, t)), '{}'),
         coalesce(jsonb_object_agg(prefix || '#' || t, overlay_list_element(old_list, t)), '{}')
    from (select distinct e ->> 'type' as t
            from jsonb_array_elements(overlay_list(old_list) || overlay_list(new_list)) e
           where e ->> 'type' is not null) types
   where overlay_list_element(old_list, t) is distinct from overlay_list_element(new_list, t)
$$;

-- A typed list with elements put in ({type: [element] or []}): an element of the same type is
-- replaced where it stands, a new one goes at the end, [] removes it.
create function overlay_put_list_elements(list jsonb, elements jsonb) returns jsonb
language sql immutable as $$
  select coalesce(jsonb_agg(x.e order by x.o), '[]'::jsonb)
    from (
      select coalesce(elements -> (l.e ->> 'type') -> 0, l.e) as e, l.i as o
        from jsonb_array_elements(overlay_list(list)) with ordinality as l(e, i)
       where not coalesce(jsonb_array_length(elements -> (l.e ->> 'type')) = 0, false)
      union all
      select p.value -> 0, 1000000000 + row_number() over (order by p.key)
        from jsonb_each(elements) p
       where jsonb_array_length(p.value) > 0
         and not exists (select 1 from jsonb_array_elements(overlay_list(list)) e where e ->> 'type' = p.key)
    ) x
$$;

-- The value at a path of a row, an element of a typed list included.
create or replace function overlay_read(row_json jsonb, path text) returns jsonb
language sql immutable as $$
  select case
    when position('.' in path) > 0 and position('#' in path) > 0 then overlay_list_element(
      case when jsonb_typeof(row_json -> split_part(path, '.', 1)) = 'object'
           then row_json -> split_part(path, '.', 1) -> split_part(substr(path, position('.' in path) + 1), '#', 1) end,
      substr(path, position('#' in path) + 1))
    when position('.' in path) > 0 then overlay_wrap(
      case when jsonb_typeof(row_json -> split_part(path, '.', 1)) = 'object'
           then row_json -> split_part(path, '.', 1) -> substr(path, position('.' in path) + 1) end)
    else jsonb_build_array(row_json -> path)
  end
$$;

create or replace function overlay_apply(tbl regclass, tenant text, key_columns text[], record_key text, fields jsonb)
returns void language plpgsql as $$
declare
  entry record;
  plain jsonb := '{}';
  merges jsonb := '{}';
  removes jsonb := '{}';
  elements jsonb := '{}';
  col text;
  sub text;
  list_key text;
  expr text;
  sets text[] := '{}';
begin
  for entry in select key, value from jsonb_each(fields) loop
    if position('.' in entry.key) > 0 then
      col := split_part(entry.key, '.', 1);
      sub := substr(entry.key, position('.' in entry.key) + 1);
      if position('#' in sub) > 0 then
        list_key := split_part(sub, '#', 1);
        elements := jsonb_set(elements, array[col], coalesce(elements -> col, '{}') || jsonb_build_object(
          list_key, coalesce(elements -> col -> list_key, '{}') || jsonb_build_object(substr(sub, position('#' in sub) + 1), entry.value)));
      elsif jsonb_array_length(entry.value) = 0 then
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
  for col in select jsonb_object_keys(merges) union select jsonb_object_keys(removes)
             union select jsonb_object_keys(elements) loop
    continue when plain ? col;
    expr := format(
      '((case when jsonb_typeof(t.%I) = ''object'' then t.%I else ''{}''::jsonb end || %L::jsonb) - array(select jsonb_array_elements_text(%L::jsonb)))',
      col, col, coalesce(merges -> col, '{}'), coalesce(removes -> col, '[]'));
    for list_key in select jsonb_object_keys(coalesce(elements -> col, '{}')) loop
      expr := format('jsonb_set(%s, array[%L], overlay_put_list_elements(%s -> %L, %L::jsonb))',
                     expr, list_key, expr, list_key, elements -> col -> list_key);
    end loop;
    sets := sets || format('%I = %s', col, expr);
  end loop;
  if cardinality(sets) = 0 then return; end if;
  execute format('update %s t set %s from jsonb_populate_record(null::%s, $1) r where t.tenant_id = $2 and %s',
                 tbl, array_to_string(sets, ', '), tbl, overlay_key_condition(key_columns, record_key))
    using plain, tenant;
end;
$$;

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
        for k in select jsonb_object_keys(
                   case when jsonb_typeof(o -> c) = 'object' then o -> c else '{}' end ||
                   case when jsonb_typeof(n -> c) = 'object' then n -> c else '{}' end) loop
          if overlay_typed_list(k) then
            select changed || d.new_values, before || d.old_values into changed, before
              from overlay_list_diff(c || '.' || k, o -> c -> k, n -> c -> k) d;
          elsif (o -> c -> k) is distinct from (n -> c -> k) then
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

-- The changes pending or confirmed now, from the whole list to one path per element.
update order_system_overlays o
   set fields = (o.fields - 'details.orderAttributes') || d.new_values,
       base = (o.base - 'details.orderAttributes') || d.old_values
  from order_system_overlays x
  cross join lateral overlay_list_diff('details.orderAttributes',
                                       x.base -> 'details.orderAttributes' -> 0,
                                       x.fields -> 'details.orderAttributes' -> 0) d
 where x.tenant_id = o.tenant_id and x.id = o.id
   and o.kind = 'update' and o.fields ? 'details.orderAttributes';
