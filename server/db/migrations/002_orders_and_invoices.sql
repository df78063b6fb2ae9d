-- 002_orders_and_invoices: what the orders, subscription, link and invoice calls keep
-- (portal-core.md §2 "Subscription detail", §4, §9). Every row carries its tenant
-- (docs/architecture.md "The design").

-- Invoice requests, once per day per invoice (§9 "Invoice request: once per day"), held in the
-- database so every server instance refuses the second request of the day
-- (docs/architecture.md "Data and the server": At scale).
create table invoice_requests (
  tenant_id      text        not null,
  user_id        text        not null,
  subject_kind   text        not null check (subject_kind in ('subscription', 'purchase_order')),
  subject_id     text        not null,
  invoice_number text        not null,
  requested_on   date        not null,            -- the UTC day of the request
  status         text        not null check (status in ('success', 'forwarded', 'not_relevant')),
  created_at     timestamptz not null default now(),
  primary key (tenant_id, subject_kind, subject_id, invoice_number, requested_on),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);

-- Download keys: a file URL (§7 "url and key") that works only for the user it was made for, for a
-- few minutes; the key itself is the credential because a new tab carries no x-auth-token.
create table download_keys (
  tenant_id    text        not null,
  key_hash     text        not null,
  user_id      text        not null,
  kind         text        not null check (kind in ('delivered_issue', 'purchase_order', 'gift_certificate')),
  subject_id   text        not null,               -- subscription id or purchase order id
  item         text        not null,               -- issue or distribution article number
  file_name    text        not null,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null,
  primary key (tenant_id, key_hash),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
create index download_keys_expires on download_keys (expires_at);

-- Record of state-changing calls of these features (docs/architecture.md "Quality bars": recorded).
create table account_activity (
  tenant_id  text        not null,
  id         bigint      generated always as identity,
  user_id    text        not null,
  action     text        not null,                 -- link_subscription, order_attribute, invoice_request, ...
  subject_id text,
  details    jsonb       not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (tenant_id, id)
);
create index account_activity_user on account_activity (tenant_id, user_id, created_at desc);
