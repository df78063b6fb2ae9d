-- Every import of the order system's files that finished, with its result. `portal import` runs in
-- a process of its own, whose counters no scrape sees: the server's metrics read the newest run per
-- tenant and result from here (portal_import_last_finished_timestamp_seconds, docs/going-live.md
-- "Operations"), so an import that wrote nothing is seen however it was started.
create table import_runs (
  tenant_id   text        not null,
  finished_at timestamptz not null default now(),
  result      text        not null check (result in ('written', 'refused', 'error')),
  via         text        not null check (via in ('cli', 'api')),
  problems    integer     not null default 0
);
create index import_runs_newest on import_runs (tenant_id, result, finished_at desc);
