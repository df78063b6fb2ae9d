-- "Download my data" (GDPR Art. 15 and 20): one row per export a subscriber asked for.
--
-- The row is both the mailed link's credential and the rate limit's record: the link carries a
-- 256-bit random token of which only the SHA-256 is kept (a copy of the database opens no export),
-- it works until expires_at and only for the account that asked (server/sso-profile-page/dataExport.ts
-- says why both are checked). The ZIP itself is never stored: it is written from the current data
-- while it downloads, so no second copy of a subscriber's personal data lies anywhere.
create table data_exports (
  tenant_id      text        not null,
  id             text        not null default gen_random_uuid()::text,
  user_id        text        not null,
  token_hash     text        not null,
  locale         text        not null,            -- the language of the README and the mail
  created_at     timestamptz not null default now(),
  expires_at     timestamptz not null,
  downloaded_at  timestamptz,                     -- the first download (the README says when)
  download_count integer     not null default 0,
  primary key (tenant_id, id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
create unique index data_exports_token on data_exports (tenant_id, token_hash);
-- The limit counts a user's requests of the last 24 hours.
create index data_exports_by_user on data_exports (tenant_id, user_id, created_at desc);
