-- The name a subscription had before the portal renamed it (docs/invoices.md "The product an
-- invoice names"). An upgrade that applies at once makes "Technikwelt Magazin – Print" into
-- "Technikwelt Magazin – Print + Digital"; an invoice issued before that day still names what it
-- was issued for. replaced_on: the first day of the new name; translations: per locale, the name
-- in that language ({"en-GB": {"displayName": …}}), as `details.translations` holds it.
create table subscription_names_before (
  tenant_id       text   not null,
  subscription_id text   not null,
  id              bigserial,
  replaced_on     date   not null,
  display_name    text,
  translations    jsonb,
  primary key (tenant_id, subscription_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
