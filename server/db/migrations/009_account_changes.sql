-- Holiday service, payment method change, complaints, address changes and opt-ins
-- (account-flows.md §2 "Holiday service", "Payment details", "Complaint", "Addresses", "Opt-ins",
-- §3, §4).

-- 1. Holiday services (§3: type, dateFrom, dateTo, issue numbers, the redirect's address). One
--    planned service per subscription at a time (§4: "An active service must be cancelled before it
--    can be changed"); a cancelled or ended one stays for the record.
create table holiday_services (
  tenant_id         text        not null,
  id                text        not null default gen_random_uuid()::text,
  subscription_id   text        not null,
  user_id           text,
  type              text        not null check (type in ('redirect', 'break', 'download')),
  date_from         date        not null,
  date_to           date        not null,
  issue_number_from text,
  issue_number_to   text,
  first_shipping    date,                   -- first shipping day of the first issue it concerns
  address           jsonb,                  -- redirect: the holiday address
  status            text        not null default 'planned' check (status in ('planned', 'cancelled', 'ended')),
  created_at        timestamptz not null default now(),
  cancelled_at      timestamptz,
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
create unique index holiday_services_one_planned on holiday_services (tenant_id, subscription_id) where status = 'planned';

-- 2. Payments serve offers and payment method changes: what a payment is for, and what to do on success.
alter table payments add column purpose text not null default 'offers' check (purpose in ('offers', 'payment-method'));
alter table payments add column details jsonb not null default '{}'::jsonb;

-- 3. Complaints about delivered issues (§3: issue, reason, compensation; one per issue).
create table complaints (
  tenant_id       text        not null,
  id              text        not null default gen_random_uuid()::text,
  subscription_id text        not null,
  user_id         text        not null,
  issue           text        not null,
  reason          text        not null check (reason in ('damaged', 'notdelivered', 'other')),
  compensation    text        not null check (compensation in ('download', 'complimentary_issue', 'replacement')),
  address_changed boolean     not null default false,
  expected_by     date,
  created_at      timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
create unique index complaints_one_per_issue on complaints (tenant_id, subscription_id, issue);

-- 4. Addresses that take effect on a later day (§4 "Address change timing"); applied by a periodic job.
create table future_addresses (
  tenant_id  text        not null,
  bp_number  char(10)    not null,
  valid_from date        not null,
  address    jsonb       not null,
  user_id    text,
  created_at timestamptz not null default now(),
  applied_at timestamptz,
  last_error text,                        -- set when applying failed: the row is left for a person to look at
  primary key (tenant_id, bp_number, valid_from),
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number) on delete cascade
);
create index future_addresses_due on future_addresses (valid_from) where applied_at is null and last_error is null;

-- 5. Opt-ins of business partners (§3 opt-in item). Switching one on waits for the double opt-in
--    link (`pending`, the link's token hash); switching off applies at once.
create table opt_ins (
  tenant_id          text        not null,
  bp_number          char(10)    not null,
  type               text        not null,
  description        jsonb       not null,      -- {"de-DE": "...", "en-GB": "..."}
  value              boolean     not null default false,
  pending            boolean     not null default false,
  confirm_token_hash text,
  confirm_expires_at timestamptz,
  updated_at         timestamptz not null default now(),
  primary key (tenant_id, bp_number, type),
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number) on delete cascade
);
create index opt_ins_token on opt_ins (tenant_id, confirm_token_hash) where confirm_token_hash is not null;
