-- A complaint notes whether the goods recipient's address changed around the issue it is about
-- (account-flows.md §3 "Complaint record also carries an address-changed flag";
-- server/issue-complaint/complaintService.ts): the portal's address changes of one partner, found
-- without reading the tenant's other events.
create index account_events_address_changes on account_events (tenant_id, subject_id)
  where type = 'address.changed';
