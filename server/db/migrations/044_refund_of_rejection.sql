-- Which rejected change made a refund due (docs/architecture.md "Payments": "Refunds"): the
-- change feed's event the order system rejected. The rejection's e-mail and the orders page's
-- notice of it say that what was paid online for the change goes back, and how far the refund
-- has got (due, issued, failed). Null for a refund of a payment that bought nothing.
alter table payment_refunds add column rejected_event_id uuid;
create index payment_refunds_rejected_event on payment_refunds (tenant_id, rejected_event_id)
  where rejected_event_id is not null;
