-- Addresses an account moved away from (the SSO profile's e-mail change, docs/subscribers.md
-- "E-mail"). The business partners' own address on record is the order system's and may still
-- name the old mailbox; it proves nothing for the partners of the account that left it: a sign-in
-- link asked for it no longer makes an account for them, and the links of the order-number, contact
-- and link-subscription flows go to the account's address instead. Whoever holds the old mailbox
-- now (an employer's, a lost one) gets nobody's data through it. An account taking the address
-- back takes its retirement off.
create table retired_addresses (
  tenant_id  text        not null,
  user_id    text        not null,
  email      text        not null,
  retired_at timestamptz not null default now(),
  primary key (tenant_id, user_id, email),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
create index retired_addresses_email on retired_addresses (tenant_id, email);

-- A partner's address on record, or null where an account speaking for the partner moved away
-- from it: the one place the rule lives, for every query that takes the address as proof.
create function address_on_record(p_tenant text, p_bp char(10), p_email text) returns text
language sql stable as $$
  select case
    when p_email is null then null
    when exists (select 1 from retired_addresses r
                   join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.user_id = r.user_id
                  where r.tenant_id = p_tenant and r.email = lower(btrim(p_email)) and ubp.bp_number = p_bp)
      then null
    else p_email
  end
$$;
