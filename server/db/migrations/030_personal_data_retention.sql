-- 030_personal_data_retention: the hourly housekeeping (server/store/housekeepingStore.ts) now
-- deletes the account activity record and the portal's copies of contact messages past their
-- retention (docs/subscribers.md "Download my data": the personal-data catalogue). Both are read by tenant
-- and account; these indexes let the clean-up find old rows across tenants without reading the tables.
create index account_activity_created on account_activity (created_at);
create index contact_messages_created on contact_messages (created_at);
