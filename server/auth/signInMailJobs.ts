import type { Queryable } from '../db/database';
import type { OutgoingMail } from '../mail/mailer';
import type { MailJob, MailJobKind, MailJobResolver } from '../store/mailQueueStore';
import { authMail, type AuthMail } from '../mail/authMails';
import { findUserByEmail } from '../store/userStore';
import { insertLoginToken } from '../store/authStore';
import type { CountedPlace } from '../store/rateLimitStore';
import { DEFAULT_SIGN_IN_LIMITS, mayMailSignInLink, mayMailUnproven, type SignInLimits } from './rateLimit';
import {
  accountHasZipCode,
  partnersByEmailNameAndZip,
  partnersWithAddressOnRecord,
} from '../store/partialLoginStore';
import { hashToken, newSecretToken } from './tokens';
import { samePortalPathOrUndefined } from '../../engine/domain/returnTo';
import { langParam } from '../../engine/domain/language';

export const MAGIC_LINK_MINUTES = 15;
export const MAGIC_LINK_PURPOSE = 'magic-link';
/** A login link that opens an e-mail + zip session (login source "email-zip", portal-core.md §4). */
export const EMAIL_ZIP_PURPOSE = 'email-zip';
/** A partner sign-in link (partial logins and bulk renewal); spent by POST /login/token in authService. */
export const PARTNER_SIGN_IN_PURPOSE = 'partner-sign-in';
/** The purposes POST /login/token spends: each signs the address's account in. */
export const LINK_LOGIN_PURPOSES = [MAGIC_LINK_PURPOSE, EMAIL_ZIP_PURPOSE, PARTNER_SIGN_IN_PURPOSE] as const;
export const REGISTRATION_MINUTES = 24 * 60;
export const RESET_MINUTES = 30;

/**
 * The sign-in requests the mail sender resolves, so no answer tells whether an account exists. The
 * request that asks only queues one row and answers; here, later and off the request, the account
 * is looked up, the single-use token written and the mail built — or nothing is sent when there is
 * no account. So the answer's content and timing are the same whether or not the address has an
 * account.
 */
async function linkMail(
  tx: Queryable,
  job: MailJob,
  token: {
    purpose: string;
    minutes: number;
    param: string;
    payload?: unknown;
    returnTo?: unknown;
    /** A place taken when the mail is made (the mailbox's, mayMailSignInLink), given back with the rest. */
    mailboxPlace?: CountedPlace;
  },
  kind: AuthMail,
): Promise<OutgoingMail> {
  const requested = Array.isArray(job.payload.countedIn) ? (job.payload.countedIn as CountedPlace[]) : [];
  const countedIn = token.mailboxPlace ? [...requested, token.mailboxPlace] : requested;
  const secret = newSecretToken();
  await insertLoginToken(tx, job.tenantId, {
    tokenHash: hashToken(secret),
    email: job.payload.email,
    purpose: token.purpose,
    expiresAt: new Date(new Date(job.payload.requestedAt).getTime() + token.minutes * 60_000),
    payload: token.payload,
    // The request's places in its budgets, given back when the link is opened (a success).
    countedIn: countedIn.length ? countedIn : undefined,
  });
  const link = `${job.payload.portalUrl}login?${token.param}=${encodeURIComponent(secret)}${langQuery(job.payload.locale)}${returnToQuery(token.returnTo)}`;
  return renderAuthMail(job, kind, link, token.minutes);
}

/**
 * The language the visitor asked in travels with the link (`&lang=de`), so the portal opens in
 * it even in a new tab or another browser (engine/core/i18n.ts initialLocale).
 */
export function langQuery(locale: string | undefined): string {
  if (!locale) return '';
  return `&lang=${langParam(locale)}`;
}

/**
 * The page the login was asked for travels with the link (`&returnTo=`, portal-core.md §2 "Login"),
 * checked again here as the queued request was stored: only a same-portal path.
 */
function returnToQuery(returnTo: unknown): string {
  const path = samePortalPathOrUndefined(returnTo);
  return path ? `&returnTo=${encodeURIComponent(path)}` : '';
}

function renderAuthMail(job: MailJob, kind: AuthMail, link: string, minutes: number): OutgoingMail {
  const mail = authMail(kind, job.payload.locale, { tenant: job.payload.tenantName, link, minutes });
  return { tenantId: job.tenantId, to: job.payload.email, from: job.payload.from, ...mail };
}

/** The mailbox's budget a fact-checked request's job carries (the server's sign-in limits). */
export type SignInMailLimit = Pick<SignInLimits, 'windowSeconds' | 'perAddress'>;

/**
 * The mailbox's place for the link a fact-checked request earned (e-mail + zip, bulk renewal;
 * limitFactCheckedAttempt): taken here, where the match is known, so a request whose facts do not
 * hold spends none of the owner's mails. Null: the mailbox has had its mails in the window.
 */
function mailboxPlaceFor(tx: Queryable, job: MailJob): Promise<CountedPlace | null> {
  const limit = (job.payload.mailLimit as SignInMailLimit | undefined) ?? DEFAULT_SIGN_IN_LIMITS;
  return mayMailSignInLink(tx, job.tenantId, limit, job.payload.email, new Date(job.payload.requestedAt));
}

export const SIGN_IN_MAIL_JOBS: Record<MailJobKind, MailJobResolver> = {
  /** A login link when the address has an account; nothing otherwise. */
  async 'magic-link'(tx, job) {
    if (!(await findUserByEmail(tx, job.tenantId, job.payload.email))) {
      // A subscriber the order system brought in (by the import or the operator API) has
      // business partners with this address on record and no account yet. The link goes to that
      // address, and opening it is the proof (partnerSignIn in commands/linkLogin.ts creates the
      // account then and makes it speak for those partners); no one else's address gets a link.
      const bpNumbers = await partnersWithAddressOnRecord(tx, job.tenantId, job.payload.email);
      if (bpNumbers.length === 0) return null;
      const payload = {
        bpNumbers,
        subscriptionId: null,
        loginSource: 'token',
        returnTo: job.payload.returnTo,
      };
      return linkMail(
        tx,
        job,
        { purpose: PARTNER_SIGN_IN_PURPOSE, minutes: MAGIC_LINK_MINUTES, param: 'p', payload },
        'magicLink',
      );
    }
    return linkMail(
      tx,
      job,
      {
        purpose: MAGIC_LINK_PURPOSE,
        minutes: MAGIC_LINK_MINUTES,
        param: 'p',
        returnTo: job.payload.returnTo,
      },
      'magicLink',
    );
  },

  /**
   * E-mail + zip (portal-core.md §7 POST /login/email-zip): a login link when the account speaks for
   * a business partner with that zip code. Knowing someone's address and zip code is no proof, so
   * the session opens only from the mailbox (docs/architecture.md "Sign-in safety").
   */
  async 'email-zip'(tx, job) {
    const user = await findUserByEmail(tx, job.tenantId, job.payload.email);
    if (!user || !(await accountHasZipCode(tx, job.tenantId, user.id, String(job.payload.zipcode ?? ''))))
      return null;
    const mailboxPlace = await mailboxPlaceFor(tx, job);
    if (!mailboxPlace) return null;
    return linkMail(
      tx,
      job,
      { purpose: EMAIL_ZIP_PURPOSE, minutes: MAGIC_LINK_MINUTES, param: 'p', mailboxPlace },
      'magicLink',
    );
  },

  /**
   * Create-account: a confirmation link carrying the registration, or a hint when the address has an
   * account; either one only within the mailbox's budget of mails anyone may ask for it
   * (rateLimit.ts unprovenMailboxRule; commands/registration.ts).
   */
  async register(tx, job) {
    const limit = (job.payload.mailLimit as SignInMailLimit | undefined) ?? DEFAULT_SIGN_IN_LIMITS;
    const mailboxPlace = await mayMailUnproven(
      tx,
      job.tenantId,
      limit,
      job.payload.email,
      new Date(job.payload.requestedAt),
    );
    if (!mailboxPlace) return null;
    if (await findUserByEmail(tx, job.tenantId, job.payload.email)) {
      return renderAuthMail(
        job,
        'accountExists',
        `${job.payload.portalUrl}login?forgot=1${langQuery(job.payload.locale)}`,
        RESET_MINUTES,
      );
    }
    const { displayName, firstName, lastName, passwordHash } = job.payload as MailJob['payload'] & {
      displayName: string;
      firstName?: string;
      lastName?: string;
      passwordHash: string;
    };
    return linkMail(
      tx,
      job,
      {
        purpose: 'register',
        minutes: REGISTRATION_MINUTES,
        param: 'confirm',
        payload: { displayName, firstName, lastName, passwordHash },
        mailboxPlace,
      },
      'confirmRegistration',
    );
  },

  /**
   * Bulk renewal's login (account-flows.md §2): a sign-in link when the address is on record for a
   * business partner with that last name and zip code; it opens the account's session (created
   * from the mailbox when needed) on /bulk-renewal. Nothing is sent otherwise.
   */
  async 'bulk-renewal'(tx, job) {
    const bpNumbers = await partnersByEmailNameAndZip(
      tx,
      job.tenantId,
      job.payload.email,
      String(job.payload.lastName ?? ''),
      String(job.payload.zipcode ?? ''),
    );
    if (bpNumbers.length === 0) return null;
    const mailboxPlace = await mailboxPlaceFor(tx, job);
    if (!mailboxPlace) return null;
    const payload = { bpNumbers, subscriptionId: null, loginSource: 'email-zip', returnTo: '/bulk-renewal' };
    return linkMail(
      tx,
      job,
      { purpose: PARTNER_SIGN_IN_PURPOSE, minutes: MAGIC_LINK_MINUTES, param: 'p', payload, mailboxPlace },
      'magicLink',
    );
  },

  /** Forgot password (§5): a reset link when the account exists; nothing otherwise. */
  async reset(tx, job) {
    if (!(await findUserByEmail(tx, job.tenantId, job.payload.email))) return null;
    return linkMail(tx, job, { purpose: 'reset', minutes: RESET_MINUTES, param: 'reset' }, 'resetPassword');
  },
};
