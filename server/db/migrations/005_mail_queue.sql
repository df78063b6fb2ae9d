-- Sign-in safety (docs/architecture.md "Sign-in safety").
--
-- 1. E-mails leave through a queue that a background sender drains (server/mail/mailSender.ts), so
--    no answer waits for a mail server and a sign-in answer does the same work whether or not the
--    address has an account. A row is either a rendered mail (kind 'mail', written in the same
--    transaction as the change that causes it) or a sign-in request the sender resolves into at
--    most one mail (kind 'magic-link', 'register', 'reset', 'email-zip'): whether the account
--    exists is looked up by the sender, never by the request. Several instances drain one queue:
--    a row is claimed with `for update skip locked` and a lease (claim_token, claimed_until); a
--    lease left by a crashed instance runs out and the row is taken again.
create table mail_queue (
  tenant_id       text        not null,
  id              text        not null default gen_random_uuid()::text,
  kind            text        not null,
  payload         jsonb,                    -- a sign-in request's input; cleared once resolved
  mail            jsonb,                    -- from, to, replyTo, subject, text, html, attachments (base64)
  state           text        not null default 'queued'
                  check (state in ('queued', 'sent', 'skipped', 'failed')),
  attempts        integer     not null default 0,
  next_attempt_at timestamptz not null default now(),
  claim_token     text,
  claimed_until   timestamptz,
  last_error      text,
  created_at      timestamptz not null default now(),
  done_at         timestamptz,
  primary key (tenant_id, id)
);
create index mail_queue_due on mail_queue (next_attempt_at) where state = 'queued';
create index mail_queue_done on mail_queue (done_at) where state <> 'queued';

-- 2. An OAuth sign-on is bound to the browser that started it: the hash of the random value in its
--    binding cookie. Requests written before this column have none and can no longer be completed
--    (they expire within ten minutes anyway).
alter table oauth_requests add column binding_hash text;

-- 3. Password attempts back off per address (server/auth/rateLimit.ts): the moment of the last
--    counted hit of a bucket, so the back-off can run from the last failure.
alter table rate_limits add column last_hit_at timestamptz;
