-- Sign-in (portal-core.md §2 "Login"): pending registrations carry their data with the confirmation
-- token, OAuth authorisation requests wait in the database (any instance can finish them),
-- kicker SSO sessions, and partial logins scoped to one subscription.

alter table login_tokens add column payload jsonb;
create index login_tokens_expiry on login_tokens (expires_at);

alter table sessions add column subscription_id text;   -- set for order-number / contact-form / email-zip logins

create table oauth_requests (
  tenant_id     text        not null,
  state_hash    text        not null,
  code_verifier text        not null,
  nonce         text        not null,
  redirect_uri  text        not null,
  return_to     text,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz not null,
  primary key (tenant_id, state_hash)
);

create table sso_sessions (
  tenant_id  text        not null,
  token_hash text        not null,
  user_id    text        not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  primary key (tenant_id, token_hash),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
