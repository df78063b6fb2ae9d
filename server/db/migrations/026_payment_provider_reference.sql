-- 026_payment_provider_reference: payments taken by a provider's hosted page (Stripe Checkout,
-- Mollie; docs/architecture.md "Payments"). The provider's id of the page the subscriber pays on (a Checkout
-- Session `cs_…`, a Mollie payment `tr_…`) identifies the payment in the provider's webhooks and in
-- the reconciliation job's questions; `provider_details` keeps what the provider answered that the
-- portal needs again (the hash of the page key the session was opened with, a Mollie customer).
-- A reference names one payment of one tenant: a webhook naming a reference that belongs to another
-- payment is refused.
alter table payments add column provider_reference text;
alter table payments add column provider_details jsonb not null default '{}';
create unique index payments_provider_reference
  on payments (tenant_id, provider, provider_reference) where provider_reference is not null;
-- The reconciliation job asks about hosted payments still pending after a few minutes.
create index payments_pending_hosted
  on payments (created_at) where status = 'pending' and provider <> 'sandbox';
