-- 003_contact_messages: messages sent through the contact form (portal-core.md §2 "Contact",
-- §7 POST /contact). Every message is kept, then mailed to the tenant's contact address.
-- Like every table, rows carry tenant_id and the key starts with it
-- (docs/architecture.md "Data and the server").

create table contact_messages (
  tenant_id         text        not null,
  id                text        not null default gen_random_uuid()::text,
  user_id           text,                     -- null for the anonymous form
  activity          text        not null,
  subscription_id   text,                     -- authenticated form, or an anonymous order number that matched
  publication       text,
  order_number      text,
  missing_order_number boolean  not null default false,
  related_to        text        check (related_to in ('subscription', 'purchase-order', 'unspecified')),  -- §9 contact subjects
  contact_details   jsonb       not null default '{}'::jsonb,   -- salutation, email, firstName, lastName, company
  message           text,
  opt_in            boolean     not null default false,
  locale            text,
  image_filename    text,
  image_mime_type   text        check (image_mime_type in ('image/png', 'image/jpeg', 'application/pdf')),  -- §9
  image_data        bytea       check (image_data is null or octet_length(image_data) <= 2097152),         -- §9: 2 MB
  mailed_to         text        not null,
  created_at        timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete set null (user_id)
);
create index contact_messages_by_date on contact_messages (tenant_id, created_at desc);
