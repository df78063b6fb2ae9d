-- A merge of the order system's subscriptions puts the replacements of licence managers it has not
-- answered back on top of the roles it sent (server/store/licenseStore.ts
-- putBackPendingManagerReplacements): found by subscription, not by a scan of the tenant's events.
create index account_events_manager_replacements on account_events (tenant_id, subject_id)
  where type = 'license_manager.replaced';
