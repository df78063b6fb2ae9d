-- Refunds of online payments (docs/architecture.md "Payments": "Refunds"). Money a subscriber paid
-- by card or PayPal goes back where nothing was bought for it: an offer's acceptance the order
-- system rejected (its share of the payment), or a payment the provider took while the offers it
-- paid for could no longer apply (the whole payment). A refund is due in the transaction that
-- decides it; the refund job asks the payment's provider for it with an idempotency key of the
-- refund's id, so a retry after a lost answer refunds once.
--
-- offer_acceptances.paid_amount: the share of the acceptance's payment its offer is (the offer's
-- price when paid online; 0 for a bulk renewal's invoice item that waited for the card payment of
-- the others). Acceptances before this migration get their offer's price where it is paid online.
alter table offer_acceptances add column paid_amount numeric(10, 2);
update offer_acceptances a
   set paid_amount = case when o.payment_provider in ('CREDIT_CARD', 'PAYPAL') then o.price else 0 end
  from offers o
 where o.tenant_id = a.tenant_id and o.id = a.offer_id and a.payment_id is not null;

create table payment_refunds (
  tenant_id          text           not null,
  id                 text           not null default gen_random_uuid()::text,
  payment_id         text           not null,
  -- The rejected acceptance it refunds; null: the whole payment, which bought nothing.
  acceptance_id      text,
  amount             numeric(10, 2) not null check (amount > 0),
  currency           text           not null,
  reason             text           not null check (reason in ('change_rejected', 'not_applied')),
  -- due: to be asked for; issued: the provider took it (the money is on its way back); failed: the
  -- provider refused it or could not be reached for the job's last attempt: the operator's to settle.
  status             text           not null default 'due' check (status in ('due', 'issued', 'failed')),
  provider_reference text,
  attempts           integer        not null default 0,
  next_attempt_at    timestamptz    not null default now(),
  last_error         text,
  created_at         timestamptz    not null default now(),
  issued_at          timestamptz,
  primary key (tenant_id, id),
  foreign key (tenant_id, payment_id) references payments (tenant_id, id)
);
-- One refund per rejected acceptance, one whole refund per payment.
create unique index payment_refunds_acceptance on payment_refunds (tenant_id, acceptance_id)
  where acceptance_id is not null;
create unique index payment_refunds_whole on payment_refunds (tenant_id, payment_id)
  where acceptance_id is null;
create index payment_refunds_due on payment_refunds (next_attempt_at) where status = 'due';
