-- API keys of the operator API and their usage log (docs/going-live.md "1. An API key": per-tenant
-- keys made and revoked with `portal keys`, shown once, stored hashed, scoped, every use logged
-- without the key).
--
-- 1. One row per key. The key itself (`pk_<tenant>_<43 base64url characters>`, 256 random bits) is
--    shown once by `portal keys create` and never stored: `secret_hash` is its SHA-256 in hex.
--    A plain SHA-256 is right here, unlike for passwords: the secret is 256 bits from the CSPRNG,
--    so there is nothing to guess and no dictionary to try, and a slow hash (scrypt, bcrypt) would
--    only add its cost to every API call. The server looks a key up by its hash (unique index), so
--    the database never compares the secret itself. `prefix` is the first characters of the key
--    (`pk_<tenant>_` plus 8 of the random part), visible in listings and logs to tell keys apart;
--    8 characters give away 48 of the 256 bits, leaving 208 unknown. `scopes` is a subset of
--    read, write, import. A revoked key stays (revoked_at set) so its log keeps its name.
create table operator_keys (
  tenant_id    text        not null,
  id           uuid        not null,
  name         text        not null,
  prefix       text        not null,
  secret_hash  text        not null,
  scopes       text[]      not null check (scopes <@ array['read', 'write', 'import']::text[] and cardinality(scopes) > 0),
  created_at   timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at   timestamptz,
  primary key (tenant_id, id)
);
create unique index operator_keys_secret_hash on operator_keys (secret_hash);
create unique index operator_keys_prefix on operator_keys (tenant_id, prefix);

-- 2. One row per authenticated call: which key, when, what (method, path without its query: a
--    query may carry what an order system should not have put there) and the answer's status, and
--    the client's address. Never the key. Calls refused before a key is known are counted by the
--    rate limiter (rate_limits), not here.
create table operator_key_uses (
  tenant_id  text        not null,
  key_id     uuid        not null,
  seq        bigint      generated always as identity,
  used_at    timestamptz not null default now(),
  method     text        not null,
  path       text        not null,
  status     integer     not null,
  client     text        not null,
  primary key (tenant_id, seq),
  foreign key (tenant_id, key_id) references operator_keys (tenant_id, id) on delete cascade
);
create index operator_key_uses_key on operator_key_uses (tenant_id, key_id, used_at desc);
