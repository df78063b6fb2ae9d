-- E-cards, the e-mail widget and the opt-in widget (account-flows.md §2 "E-card", "Email widget",
-- "Opt-in widget", §3, §5, §7, §9).

-- 1. E-cards (§3: from, to, toEmail, message, sendAt, template). A card sent "now" is written as
--    sent in the request's transaction together with its mail in the queue; a timed one waits as
--    'scheduled' until the e-card job (server/jobs/eCards.ts) claims it at its time with
--    `for update skip locked`, queues its mail and marks it sent in one transaction — so it goes
--    out once, whichever instance runs the job, and it survives restarts (it is a row, not a timer).
create table e_cards (
  tenant_id         text        not null,
  id                text        not null default gen_random_uuid()::text,
  user_id           text        not null,
  subscription_id   text,                   -- the subscription it was sent from (/subscriptions/{id}/e-card), if any
  template_name     text        not null,
  template_category text        not null,
  from_name         text        not null,
  to_name           text        not null,
  to_email          text        not null,
  message           text        not null,
  locale            text        not null,   -- the sender's screen language: the card's words around the message
  send_at           timestamptz not null,
  status            text        not null default 'scheduled' check (status in ('scheduled', 'sent', 'failed')),
  sent_at           timestamptz,
  error             text,
  created_at        timestamptz not null default now(),
  primary key (tenant_id, id),
  foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade
);
create index e_cards_due on e_cards (send_at) where status = 'scheduled';
-- The per-user daily cap counts a user's cards by creation time.
create index e_cards_by_user on e_cards (tenant_id, user_id, created_at);

-- 2. Voucher codes of the opt-in widget, one pool per provider's voucherCodeKey. A code is handed out
--    once: the confirmation claims the first free one with `for update skip locked`, so concurrent
--    confirmations never get the same code.
create table widget_voucher_codes (
  tenant_id   text        not null,
  pool        text        not null,
  code        text        not null,
  claimed_at  timestamptz,
  signup_id   text,
  primary key (tenant_id, pool, code)
);
create index widget_voucher_codes_free on widget_voucher_codes (tenant_id, pool, code) where claimed_at is null;

-- 3. Opt-in widget sign-ups, confirmed by the double opt-in link mailed to the address (only its
--    SHA-256 is stored). The voucher code is drawn at confirmation, so a made-up address gets none.
create table opt_in_widget_signups (
  tenant_id       text        not null,
  id              text        not null default gen_random_uuid()::text,
  provider        text        not null,
  pool            text,
  salutation_code text        not null,
  first_name      text        not null,
  last_name       text        not null,
  email           text        not null,   -- normalised (trimmed, lower case)
  locale          text        not null,
  token_hash      text        not null,
  expires_at      timestamptz not null,
  confirmed_at    timestamptz,
  voucher_code    text,
  created_at      timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (token_hash)
);
-- One voucher per address and provider: a second confirmation of the same address answers the first code.
create unique index opt_in_widget_signups_one_voucher on opt_in_widget_signups (tenant_id, provider, email) where voucher_code is not null;

-- 4. E-mail widget links: a request whose order number and zip code match a subscription whose address
--    on record is the typed one mails that address a link; opening it (the proof) shows the
--    subscription and its rewards and records the opt-in when it was ticked.
create table email_widget_links (
  tenant_id       text        not null,
  id              text        not null default gen_random_uuid()::text,
  subscription_id text        not null,
  email           text        not null,
  opt_in          boolean     not null default false,
  locale          text        not null,
  token_hash      text        not null,
  expires_at      timestamptz not null,
  confirmed_at    timestamptz,
  created_at      timestamptz not null default now(),
  primary key (tenant_id, id),
  unique (token_hash),
  foreign key (tenant_id, subscription_id) references subscriptions (tenant_id, id) on delete cascade
);

-- 5. The rewards the e-mail widget's result shows (§3: key, description, coverImageUrl, download).
create table email_widget_rewards (
  tenant_id       text        not null,
  key             text        not null,
  position        integer     not null default 0,
  description     jsonb       not null,   -- per locale
  cover_image_url text        not null,
  file_name       text        not null,
  primary key (tenant_id, key)
);
