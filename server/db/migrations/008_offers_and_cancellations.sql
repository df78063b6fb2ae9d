-- Cancellation, retention offers, renewal, bulk renewal and upgrade, with payments
-- (account-flows.md §2 "Cancellation screen", "Renewal and upgrade screens", "Bulk renewal", §3,
-- §4).

-- 1. Cancellation reasons per publication (§3 "Cancellation reason": cancelReason, longDescription).
--    Descriptions per locale; a publication without rows has "no reasons" ('cancellation not possible', §8).
create table cancellation_reasons (
  tenant_id    text    not null,
  publication  text    not null,
  code         text    not null,
  position     integer not null default 0,
  descriptions jsonb   not null,              -- {"de-DE": "...", "en-GB": "..."}
  primary key (tenant_id, publication, code),
  foreign key (tenant_id, publication) references publications (tenant_id, publication) on delete cascade
);

-- 2. Offers (§3 "Recommendation") per publication and category: CANCEL retention offers, the
--    tenant's renewal category, UPGRD upgrades (§9 "Default categories"). `offer` holds exactly one
--    of article, product or upgradeOption plus the texts per locale; `payment_provider` is how the
--    offer is paid (§3 bulk selection: paymentProviders[0].PAYMENT_PROVIDER): INVOICE and
--    DIRECT_DEBIT apply at once, CREDIT_CARD and PAYPAL through a payment page. `effect` is what
--    accepting does to the subscription (server/offers/applyOffer.ts).
create table offers (
  tenant_id        text    not null,
  id               text    not null,
  publication      text    not null,
  category         text    not null,
  position         integer not null default 0,
  reasons          text[],                    -- CANCEL offers only for these reasons (null: any)
  price            numeric(10, 2) not null default 0,
  currency         text    not null default 'EUR',
  payment_provider text    not null check (payment_provider in ('INVOICE', 'DIRECT_DEBIT', 'CREDIT_CARD', 'PAYPAL')),
  offer            jsonb   not null,
  effect           jsonb   not null,          -- {"kind": "extend", "months": 12} | {"kind": "upgrade", ...} | {"kind": "retain", ...}
  voucher_pool     text,                      -- cross-selling voucher codes handed out on success
  primary key (tenant_id, id),
  foreign key (tenant_id, publication) references publications (tenant_id, publication) on delete cascade
);
create index offers_by_category on offers (tenant_id, publication, category, position);

-- 3. Voucher codes of cross-selling offers, each handed out once (§3 pending payment's voucherCode;
--    §8 "voucher codes exhausted: contact phone support"). Claimed with `for update skip locked`.
create table voucher_codes (
  tenant_id   text        not null,
  pool        text        not null,
  code        text        not null,
  payment_id  text,                           -- the payment it was handed out for
  assigned_at timestamptz,
  primary key (tenant_id, pool, code)
);
create index voucher_codes_free on voucher_codes (tenant_id, pool) where payment_id is null;

-- 4. Payments of accepted offers (§3 "Pending payment": pending, success, error, canceled). The
--    provider (server/payments/) serves the page; `secret_hash` is the hash of the capability in
--    the payment page's URL. One payment may pay for several acceptances (bulk renewal).
create table payments (
  tenant_id    text        not null,
  id           text        not null default gen_random_uuid()::text,
  user_id      text        not null,
  provider     text        not null,
  method       text        not null check (method in ('CREDIT_CARD', 'PAYPAL')),
  amount       numeric(10, 2) not null,
  currency     text        not null,
  status       text        not null default 'pending' check (status in ('pending', 'success', 'error', 'canceled')),
  secret_hash  text        not null,
  locale       text        not null,
  description  text        not null,
  cross_selling jsonb,                        -- set on success: {product, voucherCode}
  created_at   timestamptz not null default now(),
  settled_at   timestamptz,
  primary key (tenant_id, id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);

-- 5. Accepted offers. A second accept of the same offer for the same subscription while the first
--    is pending, or within minutes of its being applied, finds this row and answers as the first
--    did (idempotent: a double click or a retry never pays or applies twice). Changes to one
--    subscription are serialized by a row lock on it, and at most one acceptance per offer and
--    subscription can wait for a payment (the index).
create table offer_acceptances (
  tenant_id       text        not null,
  id              text        not null default gen_random_uuid()::text,
  subscription_id text        not null,
  offer_id        text        not null,
  user_id         text        not null,
  source          text        not null check (source in ('cancellation', 'renewal', 'upgrade', 'bulk-renewal')),
  upgrade_time    text        check (upgrade_time in ('NOW', 'NEXT_CYCLE')),
  cancel_reason   text,
  status          text        not null check (status in ('pending', 'applied', 'failed')),
  payment_id      text,
  created_at      timestamptz not null default now(),
  applied_at      timestamptz,
  primary key (tenant_id, id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade,
  foreign key (tenant_id, offer_id) references offers (tenant_id, id) on delete cascade,
  foreign key (tenant_id, payment_id) references payments (tenant_id, id)
);
create unique index offer_acceptances_one_pending on offer_acceptances (tenant_id, subscription_id, offer_id) where status = 'pending';
create index offer_acceptances_payment on offer_acceptances (tenant_id, payment_id);

-- 6. Cancellations (§4 "Cancellation": order status AK, regular or exceptional). One per subscription.
create table cancellations (
  tenant_id       text        not null,
  subscription_id text        not null,
  user_id         text        not null,
  reason          text        not null,
  reason_text     text,                       -- the free-text reason of an exceptional cancellation
  feedback        text,
  type            text        not null check (type in ('regular', 'exceptional')),
  issue_number    text,
  effective_date  date        not null,
  created_at      timestamptz not null default now(),
  primary key (tenant_id, subscription_id),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);
