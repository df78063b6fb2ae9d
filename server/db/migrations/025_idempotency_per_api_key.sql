-- 025_idempotency_per_api_key: an Idempotency-Key's kept answer belongs to the API key that got
-- it (docs/going-live.md "Going live with your order system" 2, "Idempotency-Key"). Before, one tenant's keys
-- shared the answers: a write key retrying with the idempotency key a read key had used got the
-- read key's 403, and a read key got a write key's 201 replayed. Now each API key has its own
-- idempotency keys, and an answer is replayed only to the API key, method, path, query and body
-- that got it (server/operator/idempotency.ts).
--
-- The kept answers are a day's cache of retries and say nothing of which key they went to: they
-- are dropped, not guessed. A retry of a write from before the upgrade runs again, which the
-- records' versions make harmless (an equal record answers `unchanged`).
delete from operator_idempotency_keys;

alter table operator_idempotency_keys add column api_key_id uuid not null;
alter table operator_idempotency_keys drop constraint operator_idempotency_keys_pkey;
alter table operator_idempotency_keys add primary key (tenant_id, api_key_id, idempotency_key);
alter table operator_idempotency_keys
  add foreign key (tenant_id, api_key_id) references operator_keys (tenant_id, id) on delete cascade;
