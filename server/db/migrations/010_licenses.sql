-- Multi-user licences (account-flows.md §2 "Licences", §3 licence and licence object, §4, §6, §7).
--
-- A multi-licence subscription (isMultiLicense) has one or more licence objects (§3: orderNumber,
-- publicationName, licenses, maxActiveLicenses, selfServiceEnabled); each object has its licences.
-- A licence names the person invited (§3 businessPartner) until they accept; accepting creates
-- their business partner and account link, and while the licence is active that partner holds the
-- goods-recipient role (WE) on the subscription, so the licence user sees the licensed subscription.
-- The licence manager is the LV role of subscription_roles (001_initial).

create table license_objects (
  tenant_id            text     not null,
  subscription_id      text     not null,
  order_number         char(10) not null check (order_number ~ '^[0-9]{10}$'),   -- §9: 10 digits
  max_active_licenses  integer  not null check (max_active_licenses >= 0),
  self_service_enabled boolean  not null default true,
  primary key (tenant_id, subscription_id, order_number),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);

create table licenses (
  tenant_id          text        not null,
  id                 text        not null default gen_random_uuid()::text,
  subscription_id    text        not null,
  order_number       char(10)    not null,
  is_active          boolean     not null default true,
  is_reactivatable   boolean     not null default true,
  is_confirmed       boolean     not null default false,
  -- §3 businessPartner of the invited person: salutationCode, firstName, lastName1, emailAddress;
  -- after acceptance also titleAcademic, company1 and the bpNumber made for them.
  business_partner   jsonb       not null,
  email              text        not null check (email = lower(btrim(email))),
  bp_number          char(10),                   -- set on acceptance
  role               text,                       -- §3 role, chosen on acceptance
  academic_year      text check (academic_year ~ '^[0-9]{2}$'),
  -- The invitation link's single-use token: only its SHA-256 is kept; a resend replaces it.
  invite_token_hash  text,
  invited_at         timestamptz,
  accepted_at        timestamptz,
  accepted_user_id   text,
  created_at         timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id, order_number) references license_objects (tenant_id, subscription_id, order_number) on delete cascade,
  foreign key (tenant_id, bp_number) references business_partners (tenant_id, bp_number)
);
-- One licence per person and object.
create unique index licenses_one_per_email on licenses (tenant_id, subscription_id, order_number, email);
create index licenses_object on licenses (tenant_id, subscription_id, order_number, created_at);
