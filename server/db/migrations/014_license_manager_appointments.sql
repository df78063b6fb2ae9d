-- Appointing a licence manager needs proof from the appointed address
-- (account-flows.md §2 "Licences", §6): nobody gets rights on an address they do not read. "Replace
-- licence manager" no longer changes the role at once: it stores the appointment as pending and
-- mails the appointed address a link with a single-use token (only its SHA-256 is kept). Only when
-- that link is opened and confirmed does the address get an account on the tenant (or its existing
-- one), a business partner with the licence manager role (LV), and do the previous managers lose
-- theirs. A link works for 14 days (server/store/licenseStore.ts APPOINTMENT_DAYS, like licence
-- invitations); a newer appointment for the same subscription replaces a pending one (its link
-- stops working).
create table license_manager_appointments (
  tenant_id             text        not null,
  id                    text        not null default gen_random_uuid()::text,
  subscription_id       text        not null,
  salutation_code       text,
  first_name            text,
  last_name1            text,
  email                 text        not null check (email = lower(btrim(email))),
  token_hash            text        not null,
  -- The account that appointed (ordering party or licence manager); the appointment stands only
  -- while that account may still appoint.
  appointed_by_user_id  text        not null,
  locale                text        not null,
  created_at            timestamptz not null default now(),
  confirmed_at          timestamptz,
  confirmed_user_id     text,
  bp_number             char(10),
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
-- At most one pending appointment per subscription.
create unique index license_manager_appointments_pending on license_manager_appointments (tenant_id, subscription_id) where confirmed_at is null;
