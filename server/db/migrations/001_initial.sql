-- 001_initial: accounts, business partners, publications, subscriptions, orders, invoices, issues,
-- and the auth tables. Entities and fields: portal-core.md §3; states: §4; roles: §6; constants: §9.
--
-- Multi-tenancy (docs/architecture.md "Data and the server"): every row carries its tenant_id, every primary
-- key and unique constraint starts with tenant_id, and every foreign key includes it, so a row can
-- never point at another tenant's row. Fields the portal only displays live in a `details` jsonb
-- column in the camelCase of the API; fields that are filtered, joined or sorted on are columns.

create table users (
  tenant_id     text        not null,
  id            text        not null default gen_random_uuid()::text,
  email         text        not null,
  display_name  text,
  first_name    text,
  last_name     text,
  password_hash text,                       -- null: magic-link only, until a password is set
  sso_id        text,
  created_at    timestamptz not null default now(),
  primary key (tenant_id, id),
  constraint users_email_lower check (email = lower(btrim(email)))
);
create unique index users_tenant_email_key on users (tenant_id, email);
create unique index users_tenant_sso_key on users (tenant_id, sso_id) where sso_id is not null;

create table business_partners (
  tenant_id       text     not null,
  bp_number       char(10) not null check (bp_number ~ '^[0-9]{10}$'),   -- §9: 10 digits
  salutation_code text,
  first_name      text,
  last_name1      text,
  company1        text,
  street          text,
  street_number   text,
  zipcode         text,
  city            text,
  country_code    text,
  email_address   text,
  phone_number    text,
  date_of_birth   date,
  -- the rest of §3 "Business partner": salutation, title, lastName2, company2, addressLine1-3,
  -- listOfCommunication, bpHolidayAddress, status, ...
  details         jsonb    not null default '{}'::jsonb,
  primary key (tenant_id, bp_number)
);
create index business_partners_tenant_email on business_partners (tenant_id, lower(email_address));

-- Which business partners an account speaks for (set by the link-subscription flow or the seed).
create table user_business_partners (
  tenant_id  text        not null,
  user_id    text        not null,
  bp_number  char(10)    not null,
  created_at timestamptz not null default now(),
  primary key (tenant_id, user_id, bp_number),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade,
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number) on delete cascade
);
create index user_business_partners_bp on user_business_partners (tenant_id, bp_number);

create table publications (
  tenant_id       text not null,
  publication     text not null,
  client_id       text not null,            -- order-system client, the first 3 chars of subscription ids
  description     text not null,
  cover_image_url text,
  current_issue   text,
  primary key (tenant_id, publication)
);

create table subscriptions (
  tenant_id       text     not null,
  id              text     not null check (length(id) > 3),
  client_id       text     generated always as (substr(id, 1, 3)) stored,   -- §3: first 3 chars of id
  order_number    char(10) not null check (order_number ~ '^[0-9]{10}$'),   -- §9: 10 digits
  publication     text     not null,
  order_status    text     not null check (order_status in ('A', 'AK', 'I', 'IZ', 'IU')),  -- §4
  mix_type        text     not null,
  bundle_number   text,
  cust_order_date date,
  valid_from      date,
  valid_to        date,
  -- the remaining §3 subscription fields (displayName, mixTypeDetails, renewal, currentSuspension, ...)
  details         jsonb    not null default '{}'::jsonb,
  primary key (tenant_id, id),
  foreign key (tenant_id, publication) references publications (tenant_id, publication)
);
create unique index subscriptions_tenant_client_order on subscriptions (tenant_id, client_id, order_number);
create index subscriptions_tenant_order_number on subscriptions (tenant_id, order_number);
create index subscriptions_tenant_bundle on subscriptions (tenant_id, bundle_number) where bundle_number is not null;

create table subscription_roles (
  tenant_id       text     not null,
  subscription_id text     not null,
  bp_number       char(10) not null,
  role            text     not null check (role in ('WE', 'RE', 'AG', 'LV')),  -- §6
  primary key (tenant_id, subscription_id, bp_number, role),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade,
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number)
);
create index subscription_roles_bp on subscription_roles (tenant_id, bp_number);

create table purchase_orders (
  tenant_id                        text     not null,
  id                               text     not null,
  purchase_order_number            char(10) not null,
  distribution_article_number      text     not null,
  distribution_article_description text     not null,
  cover_image_url                  text,
  date_of_purchase_order_client    date     not null,
  quantity                         integer  not null default 1 check (quantity > 0),
  invoice_status                   smallint not null check (invoice_status in (1, 2, 3)),  -- 1 open, 2 paid, 3 overpaid
  invoice_number                   text,
  download_status                  text     not null default 'unknown'
    check (download_status in ('unknown', 'not_supported', 'not_found', 'found', 'expired')),
  -- packageInfo: scanStatus ('' pending, '90' shipped), versWeg (provider code, §9), consignmentNumber, deliveryDate
  package_info                     jsonb,
  details                          jsonb    not null default '{}'::jsonb,  -- purchaseOrderId, reason, ...
  primary key (tenant_id, id)
);
create index purchase_orders_tenant_number on purchase_orders (tenant_id, purchase_order_number);

create table purchase_order_roles (
  tenant_id         text     not null,
  purchase_order_id text     not null,
  bp_number         char(10) not null,
  role              text     not null check (role in ('WE', 'RE', 'AG', 'LV')),
  primary key (tenant_id, purchase_order_id, bp_number, role),
  foreign key (tenant_id, purchase_order_id) references purchase_orders (tenant_id, id) on delete cascade,
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number)
);
create index purchase_order_roles_bp on purchase_order_roles (tenant_id, bp_number);

-- Orders the order system has taken but not yet turned into subscriptions (§3 "Pending order").
create table pending_orders (
  tenant_id         text     not null,
  id                text     not null,
  bp_number         char(10) not null,        -- whose order it is
  source            text     not null,        -- 'VHS' or another source
  title             text     not null,
  order_number      char(10),
  article_number    text,
  order_date        date,
  cover_image_url   text,
  issue_number_from text,
  download_url      text,
  download_is_file  boolean,
  primary key (tenant_id, id),
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number)
);
create index pending_orders_bp on pending_orders (tenant_id, bp_number);

create table payment_history (
  tenant_id                text          not null,
  subscription_id          text          not null,
  id                       text          not null,
  date                     date          not null,
  amount                   numeric(12,2) not null,
  currency                 text          not null default 'EUR',   -- §9: payment amounts in EUR
  invoice_status_code      text          not null check (invoice_status_code in ('U', 'A', 'T', 'O')),
  invoice_number           text,
  external_document_number text,
  document_id              text,
  primary key (tenant_id, subscription_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
create index payment_history_by_date on payment_history (tenant_id, subscription_id, date desc);

create table delivered_issues (
  tenant_id          text not null,
  subscription_id    text not null,
  issue              text not null,
  issue_number       text,
  description        text,
  date_of_first_sale date,
  download_status    text not null default 'unknown'
    check (download_status in ('unknown', 'not_supported', 'not_found', 'found', 'expired')),
  primary key (tenant_id, subscription_id, issue),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
create index delivered_issues_by_date on delivered_issues (tenant_id, subscription_id, date_of_first_sale desc);

create table issues (
  tenant_id              text not null,
  publication            text not null,
  issue                  text not null,
  issue_number           text,
  description            text,
  date_of_first_sale     date,
  date_of_first_shipping date,
  primary key (tenant_id, publication, issue),
  foreign key (tenant_id, publication) references publications (tenant_id, publication) on delete cascade
);
create index issues_by_sale_date on issues (tenant_id, publication, date_of_first_sale);

-- Auth tables, in the exact shape the auth module expects.
create table sessions (
  tenant_id    text,
  id           text primary key,
  token_hash   text not null unique,
  user_id      text not null,
  login_source text not null,
  created_at   timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at   timestamptz not null,
  revoked_at   timestamptz
);
create index sessions_tenant_user on sessions (tenant_id, user_id);
create index sessions_expires on sessions (expires_at);

create table login_tokens (
  tenant_id  text,
  token_hash text primary key,
  email      text not null,
  purpose    text not null,
  created_at timestamptz default now(),
  expires_at timestamptz not null,
  used_at    timestamptz
);
create index login_tokens_tenant_email on login_tokens (tenant_id, email);

create table rate_limits (
  tenant_id    text,
  bucket       text,
  window_start timestamptz,
  hits         int,
  primary key (tenant_id, bucket, window_start)
);

create table demo_seeds (
  tenant_id text primary key,
  seed      int,
  seeded_at timestamptz
);
