-- The order system's versions of the records it sent (docs/going-live.md "Whose data is it: the
-- order system's records and the subscribers' changes"): one row per entity and key, the newest
-- version written and a hash of the record. A write older than the stored version is refused, so a
-- retried or reordered delivery never takes a record back in time; an equal version with the same
-- hash is "unchanged". A deleted record keeps its row (deleted = true) for the same reason: an old
-- upsert arriving after the delete is refused.
create table order_system_versions (
  tenant_id    text        not null,
  entity       text        not null,
  record_key   text        not null,
  version      bigint      not null,
  content_hash text        not null,
  deleted      boolean     not null default false,
  updated_at   timestamptz not null default now(),
  primary key (tenant_id, entity, record_key)
);

-- An import interrupted part-way: how many lines of a file (named by its content's SHA-256) are
-- merged and committed. The next `portal import` of the same file goes on after them; a finished
-- import removes its row, so an identical import later runs whole again (and changes nothing).
create table import_progress (
  tenant_id   text        not null,
  entity      text        not null,
  file_sha256 text        not null,
  lines_done  integer     not null,
  updated_at  timestamptz not null default now(),
  primary key (tenant_id, entity, file_sha256)
);

-- Idempotency-Key of the operator API's writes: the first answer to a key is kept for a day and
-- given again to a retry with the same request; the same key with another request is refused.
create table operator_idempotency_keys (
  tenant_id       text        not null,
  idempotency_key text        not null,
  request_hash    text        not null,
  status          integer     not null,
  response        jsonb       not null,
  created_at      timestamptz not null default now(),
  primary key (tenant_id, idempotency_key)
);
create index operator_idempotency_keys_created on operator_idempotency_keys (created_at);
