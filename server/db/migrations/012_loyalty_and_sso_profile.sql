-- 012_loyalty_and_sso_profile: the loyalty programme and the SSO profile page (account-flows.md
-- §2 "SSO profile", "Loyalty programme", §3 loyalty user, tier, reward, claim, history entry, §4
-- "Reward claim", "SSO delete", "Loyalty opt-out"). Every row carries its tenant
-- (docs/architecture.md "The design").

-- 1. Deleted accounts (§4 "SSO delete"). The row stays, anonymised, because accounting records
--    (payments, invoice requests, cancellations) point at it; everything personal is removed.
alter table users add column deleted_at timestamptz;

-- 2. Tiers of the tenant's programme (§3 "Tier"): names and descriptions per locale, the runtime in
--    months a member needs to reach it, its icons.
create table loyalty_tiers (
  tenant_id         text    not null,
  tier_code         text    not null,
  position          integer not null,
  name              jsonb   not null,           -- {"de-DE": "...", "en-GB": "..."}
  description       jsonb   not null,
  runtime_to_reach  integer not null check (runtime_to_reach >= 0),
  reached_icon_url  text,
  locked_icon_url   text,
  primary key (tenant_id, tier_code)
);

-- 3. Rewards of a tier (§3 "Reward"): G = a code from its pool, L or 3 = a shop link (targetURL).
create table loyalty_rewards (
  tenant_id      text    not null,
  id             text    not null,
  tier_code      text    not null,
  position       integer not null,
  name           jsonb   not null,
  description    jsonb   not null,
  icon_url       text,
  main_image_url text,
  reward_type    text    not null,
  claimable      boolean not null default true,
  target_url     text,
  consent        jsonb,                          -- optional consent text per locale
  primary key (tenant_id, id),
  foreign key (tenant_id, tier_code) references loyalty_tiers (tenant_id, tier_code) on delete cascade
);

-- 4. Members: the loyalty opt-in (§3 "Loyalty user": opt-in status). No row = never opted in.
create table loyalty_members (
  tenant_id    text        not null,
  user_id      text        not null,
  opted_in     boolean     not null,
  changed_at   timestamptz not null default now(),
  primary key (tenant_id, user_id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);

create table loyalty_favorites (
  tenant_id  text        not null,
  user_id    text        not null,
  reward_id  text        not null,
  created_at timestamptz not null default now(),
  primary key (tenant_id, user_id, reward_id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade,
  foreign key (tenant_id, reward_id) references loyalty_rewards (tenant_id, id) on delete cascade
);

-- 5. Code pools: each code is handed out once (claimed_at set), never twice, even when claims race
--    (the claim takes a free row with FOR UPDATE SKIP LOCKED). A code stays taken when its member
--    deletes the account (claimed_by becomes null, claimed_at stays).
create table loyalty_codes (
  tenant_id  text        not null,
  reward_id  text        not null,
  code       text        not null,
  claimed_by text,
  claimed_at timestamptz,
  primary key (tenant_id, reward_id, code),
  foreign key (tenant_id, reward_id) references loyalty_rewards (tenant_id, id) on delete cascade
);
create index loyalty_codes_free on loyalty_codes (tenant_id, reward_id) where claimed_at is null;

-- 6. Claims = the history (§3 "History entry"); a member claims a reward once (the key).
create table loyalty_claims (
  tenant_id  text        not null,
  user_id    text        not null,
  reward_id  text        not null,
  code       text,                               -- G rewards: the code handed out
  claimed_at timestamptz not null default now(),
  primary key (tenant_id, user_id, reward_id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade,
  foreign key (tenant_id, reward_id) references loyalty_rewards (tenant_id, id) on delete cascade
);
