-- A licence user's goods-recipient role (WE) comes from a licence, not from the contract: such a
-- role lets its holder read the subscription and its issues, never change the contract
-- (engine/domain/capabilities.ts LICENCE_USER_CAPABILITIES).
alter table subscription_roles add column if not exists via_license boolean not null default false;
