/**
 * SQL of the e-mail widget and the opt-in widget (migration 011): mailed links (only the token's
 * SHA-256 is stored), opt-in widget sign-ups, the voucher code pools (a code is claimed with
 * `for update skip locked`, so concurrent confirmations never share one) and the widget's rewards.
 * Every query is scoped by tenant.
 */
import type { Queryable } from '../db/database';
import { mailboxOf } from '../../engine/domain/fieldRules';

// --- e-mail widget --------------------------------------------------------------------------------

export async function insertEmailWidgetLink(
  db: Queryable,
  link: {
    tenantId: string;
    subscriptionId: string;
    email: string;
    optIn: boolean;
    locale: string;
    tokenHash: string;
    expiresAt: Date;
  },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `insert into email_widget_links (tenant_id, subscription_id, email, opt_in, locale, token_hash, expires_at) values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [link.tenantId, link.subscriptionId, link.email, link.optIn, link.locale, link.tokenHash, link.expiresAt],
  );
  return rows[0].id;
}

export interface EmailWidgetLinkRow {
  id: string;
  subscriptionId: string;
  email: string;
  optIn: boolean;
  confirmedAt: Date | null;
}

/** A link that has not expired, locked for the confirming transaction. */
export async function findEmailWidgetLink(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<EmailWidgetLinkRow | undefined> {
  const rows = await db.query<EmailWidgetLinkRow>(
    `select id, subscription_id as "subscriptionId", email, opt_in as "optIn", confirmed_at as "confirmedAt"
       from email_widget_links where tenant_id = $1 and token_hash = $2 and expires_at > $3 for update`,
    [tenantId, tokenHash, now],
  );
  return rows[0];
}

export async function markEmailWidgetLinkConfirmed(
  db: Queryable,
  tenantId: string,
  id: string,
  at: Date,
): Promise<void> {
  await db.query(
    `update email_widget_links set confirmed_at = $3 where tenant_id = $1 and id = $2 and confirmed_at is null`,
    [tenantId, id, at],
  );
}

export interface RewardRow {
  key: string;
  description: Record<string, string>;
  coverImageUrl: string;
  fileName: string;
}

export async function listEmailWidgetRewards(db: Queryable, tenantId: string): Promise<RewardRow[]> {
  return db.query<RewardRow>(
    `select key, description, cover_image_url as "coverImageUrl", file_name as "fileName" from email_widget_rewards where tenant_id = $1 order by position, key`,
    [tenantId],
  );
}

/** The subscription summary the widget's result shows. */
export async function widgetSubscriptionSummary(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<
  { displayName: string; orderNumber: string; publication: string; coverImageUrl: string | null } | undefined
> {
  const rows = await db.query<{
    displayName: string;
    orderNumber: string;
    publication: string;
    coverImageUrl: string | null;
  }>(
    `select coalesce(p.description, s.publication) as "displayName", s.order_number::text as "orderNumber", s.publication, p.cover_image_url as "coverImageUrl"
       from subscriptions s left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
      where s.tenant_id = $1 and s.id = $2`,
    [tenantId, subscriptionId],
  );
  return rows[0];
}

// --- opt-in widget --------------------------------------------------------------------------------

export async function insertOptInWidgetSignup(
  db: Queryable,
  signup: {
    tenantId: string;
    provider: string;
    pool: string | null;
    salutationCode: string;
    firstName: string;
    lastName: string;
    email: string;
    locale: string;
    tokenHash: string;
    expiresAt: Date;
  },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `insert into opt_in_widget_signups (tenant_id, provider, pool, salutation_code, first_name, last_name, email, locale, token_hash, expires_at, mailbox)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
    [
      signup.tenantId,
      signup.provider,
      signup.pool,
      signup.salutationCode,
      signup.firstName,
      signup.lastName,
      signup.email,
      signup.locale,
      signup.tokenHash,
      signup.expiresAt,
      mailboxOf(signup.email),
    ],
  );
  return rows[0].id;
}

export interface OptInWidgetSignupRow {
  id: string;
  provider: string;
  pool: string | null;
  salutationCode: string;
  firstName: string;
  lastName: string;
  email: string;
  locale: string;
  confirmedAt: Date | null;
  voucherCode: string | null;
}

const SIGNUP_COLUMNS = `id, provider, pool, salutation_code as "salutationCode", first_name as "firstName", last_name as "lastName", email, locale,
  confirmed_at as "confirmedAt", voucher_code as "voucherCode"`;

/** A sign-up by its link's token, not expired, locked for the confirming transaction. */
export async function findOptInWidgetSignup(
  db: Queryable,
  tenantId: string,
  tokenHash: string,
  now: Date,
): Promise<OptInWidgetSignupRow | undefined> {
  const rows = await db.query<OptInWidgetSignupRow>(
    `select ${SIGNUP_COLUMNS} from opt_in_widget_signups where tenant_id = $1 and token_hash = $2 and expires_at > $3 for update`,
    [tenantId, tokenHash, now],
  );
  return rows[0];
}

/** The code an address's mailbox already received from a provider (one voucher per mailbox and provider). */
export async function voucherOfAddress(
  db: Queryable,
  tenantId: string,
  provider: string,
  email: string,
): Promise<string | undefined> {
  const rows = await db.query<{ code: string }>(
    `select voucher_code as code from opt_in_widget_signups
      where tenant_id = $1 and provider = $2 and voucher_code is not null
        and mailbox = $3`,
    [tenantId, provider, mailboxOf(email)],
  );
  return rows[0]?.code;
}

/**
 * Hands out the first free code of the pool to the sign-up: `for update skip locked` lets a
 * concurrent confirmation take the next free code instead of waiting for (or sharing) this one.
 * Undefined when the pool is exhausted.
 */
export async function claimVoucherCode(
  db: Queryable,
  tenantId: string,
  pool: string,
  signupId: string,
  now: Date,
): Promise<string | undefined> {
  const rows = await db.query<{ code: string }>(
    `update widget_voucher_codes set claimed_at = $4, signup_id = $3
      where (tenant_id, pool, code) = (
        select tenant_id, pool, code from widget_voucher_codes
         where tenant_id = $1 and pool = $2 and claimed_at is null
         order by code limit 1 for update skip locked)
      returning code`,
    [tenantId, pool, signupId, now],
  );
  return rows[0]?.code;
}

/** Whether the pool still has a code to hand out (one row looked at, however large the pool). */
export async function hasFreeVoucherCode(db: Queryable, tenantId: string, pool: string): Promise<boolean> {
  const rows = await db.query<{ free: boolean }>(
    `select exists (select 1 from widget_voucher_codes
                     where tenant_id = $1 and pool = $2 and claimed_at is null) as free`,
    [tenantId, pool],
  );
  return rows[0].free;
}

export async function markSignupConfirmed(
  db: Queryable,
  tenantId: string,
  id: string,
  voucherCode: string | null,
  at: Date,
): Promise<void> {
  await db.query(
    `update opt_in_widget_signups set confirmed_at = $4, voucher_code = $3 where tenant_id = $1 and id = $2`,
    [tenantId, id, voucherCode, at],
  );
}
