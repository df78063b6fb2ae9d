-- 051_account_event_locale: the language of the screen a change was made on
-- (server/events/eventLocale.ts). The order system may reject the change days later without
-- naming the subscriber's correspondence language; the mail that says so is then written in the
-- language the subscriber used when making the change, not in the tenant's default
-- (docs/going-live.md "Confirming and rejecting changes"). Null where no screen named one: events
-- of jobs and of the payment providers' callbacks, and rows made before this column.
alter table account_events add column locale text;
