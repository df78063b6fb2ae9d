import type { Database, Queryable } from '../db/database';
import { authMail } from '../mail/authMails';
import { enqueueMail, enqueueMailJob, type MailJobBase, type MailJobKind } from '../mail/mailQueue';
import { createUser, findUserByEmail, linkBusinessPartner, setPasswordHash } from '../store/userStore';
import type { UserRecord } from '../store/rows';
import { isValidPassword, normalizeEmail } from '../../engine/domain/fieldRules';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import type { ServerTenant } from '../tenancy/tenantContext';
import { badRequest, HttpError, unauthorized } from '../http/errors';
import {
  consumeLoginToken,
  findLiveSession,
  insertLoginToken,
  insertSession,
  revokeSession,
  revokeUserSessions,
  touchSession,
} from '../store/authStore';
import { hashPassword, verifyPassword } from './passwords';
import {
  countingFailures,
  DEFAULT_SIGN_IN_LIMITS,
  limitPasswordAttempt,
  limitSignInAttempt,
  recordPasswordFailure,
  recordPasswordSuccess,
  signInRules,
  type SignInLimits,
} from './rateLimit';
import { hashToken, newSecretToken } from './tokens';
import {
  EMAIL_ZIP_PURPOSE,
  langQuery,
  MAGIC_LINK_MINUTES,
  MAGIC_LINK_PURPOSE,
  PARTNER_SIGN_IN_PURPOSE,
} from './signInMailJobs';
import { partnersOnRecordFor } from '../store/partialLoginStore';
import { samePortalPathOrUndefined } from '../../engine/domain/returnTo';
import { recordEvent } from '../events/recordEvent';
import type { LoginResult } from '../../schemas/generated/login-result';
import { revokeSsoSessionsOfUser } from '../store/ssoSessionStore';
import type { RequestOrigin } from '../http/requestOrigin';

export { MAGIC_LINK_MINUTES, MAGIC_LINK_PURPOSE };
/**
 * A sign-in link sent by a partial login (order number + name, order number + zip) to the address
 * on record for the business partner (issue 10, findings 1 and 2). Opening it is the proof.
 */
export interface PartnerSignInPayload {
  bpNumbers: string[];
  /** The one subscription a partial login may act on; null: the account's session (bulk renewal). */
  subscriptionId: string | null;
  loginSource: 'order-number' | 'contact-form' | 'email-zip';
  returnTo?: string;
}
/** The purposes POST /login/token spends. */
const LINK_LOGIN_PURPOSES = [MAGIC_LINK_PURPOSE, EMAIL_ZIP_PURPOSE, PARTNER_SIGN_IN_PURPOSE] as const;

export interface AuthenticatedUser {
  id: string;
  email: string;
  sessionId: string;
  loginSource: string;
  /** Set for partial logins that may act on one subscription only (portal-core.md §4). */
  subscriptionId: string | null;
  /**
   * The tenant's subscription data version and the day when the request began (migration 015):
   * an answer of GET /subscriptions made under the same value is still true.
   */
  subscriptionDataVersion: string;
}

/** schemas/api/login-result.schema.json: every answer that opens a session. */
export type { LoginResult } from '../../schemas/generated/login-result';
/** How a session was opened (portal-core.md §4). */
export type LoginSource = LoginResult['loginSource'];

/** A login that may name a same-portal page to go to next (engine/domain/returnTo.ts). */
export type LinkLoginResult = LoginResult;

export interface AuthServiceDeps {
  db: Database;
  mailFrom: string;
  now?: () => Date;
  signInLimits?: SignInLimits;
}

export interface Registration {
  email: string;
  password: string;
  passwordConfirm: string;
  displayName: string;
  firstName?: string;
  lastName?: string;
}

const invalidCredentials = () =>
  unauthorized('invalid_credentials', 'The e-mail address or the password is wrong.');
const invalidLink = () => unauthorized('invalid_token', 'This link is invalid or has expired.');

/** §5: the password rule, and the confirmation must match. */
function checkNewPassword(password: string, passwordConfirm: string): void {
  if (!isValidPassword(password)) {
    throw badRequest(
      'weak_password',
      'The password needs 8 to 20 characters with an upper-case letter, a lower-case letter and a digit.',
      [{ field: '/password', message: 'does not meet the password rule' }],
    );
  }
  if (password !== passwordConfirm) {
    throw badRequest('password_mismatch', 'The two passwords differ.', [
      { field: '/passwordConfirm', message: 'does not match the password' },
    ]);
  }
}

/**
 * Sign-in decisions (portal-core.md §2 "Login", §4 auth state, §5 login and password rules,
 * §7 login calls). Tokens and sessions live in the database, hashed, so any number of server
 * instances share them; no answer tells whether an e-mail address has an account.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
  const limit = (tenant: ServerTenant, action: string, subject: { address?: string; client: string }) =>
    limitSignInAttempt(deps.db, tenant.id, limits, action, subject, now());
  /** A link's token spent by a client: only refused tokens count against the client (issue 22). */
  const spendingToken = <T>(tenant: ServerTenant, client: string, attempt: () => Promise<T>) =>
    countingFailures(deps.db, tenant.id, signInRules(limits, 'token', { client }), now(), attempt);
  const idleMs = (tenant: ServerTenant) => tenant.login.sessionIdleMinutes * 60_000;
  const inMinutes = (minutes: number) => new Date(now().getTime() + minutes * 60_000);

  async function openSession(
    db: Queryable,
    tenant: ServerTenant,
    user: { id: string; email: string },
    loginSource: LoginSource,
    subscriptionId?: string,
  ): Promise<LoginResult> {
    const accessToken = newSecretToken();
    await insertSession(db, tenant.id, {
      tokenHash: hashToken(accessToken),
      userId: user.id,
      loginSource,
      expiresAt: new Date(now().getTime() + idleMs(tenant)),
      subscriptionId,
    });
    const login: LoginResult = { user: { id: user.id, email: user.email }, loginSource, accessToken };
    // §4 "Login response: … for order-number and contact-form logins a subscription": the one a
    // "logged in only" session may act on, so the screens know its scope (engine/domain/sessionScope.ts).
    return subscriptionId ? { ...login, subscriptionId } : login;
  }

  const startSession = (
    tenant: ServerTenant,
    user: { id: string; email: string },
    loginSource: LoginSource,
    subscriptionId?: string,
  ) => openSession(deps.db, tenant, user, loginSource, subscriptionId);

  /**
   * Queues a sign-in request for the mail sender (server/auth/signInMailJobs.ts decides there
   * whether the address has an account). The request itself does one insert whatever the
   * address: its answer and its timing tell nobody whether an account exists (issue 10, finding 4).
   */
  async function queueSignInMail(
    tenant: ServerTenant,
    kind: MailJobKind,
    email: string,
    origin: RequestOrigin,
    extra: Record<string, unknown> = {},
  ) {
    const base: MailJobBase = {
      email,
      portalUrl: origin.portalUrl,
      locale: origin.locale ?? tenant.defaultLocale,
      tenantName: tenant.name,
      from: deps.mailFrom,
      requestedAt: now().toISOString(),
    };
    await enqueueMailJob(deps.db, { tenantId: tenant.id, kind, payload: { ...base, ...extra } });
  }

  /**
   * Opens a partner sign-in link: the address must (still) be on record for the partners, the
   * account of that address is found or created and made to speak for them. The account is
   * created here, from the mailbox, never by the partial login that asked for the link.
   */
  async function partnerSignIn(
    tx: Queryable,
    tenant: ServerTenant,
    email: string,
    bpNumbers: string[],
    subscriptionId: string | null,
  ): Promise<UserRecord> {
    const onRecord = await partnersOnRecordFor(tx, tenant.id, email, bpNumbers);
    if (onRecord.length === 0) throw invalidLink();
    const existing = await findUserByEmail(tx, tenant.id, email);
    const user = existing ?? (await createUser(tx, tenant.id, { email }));
    // Issue 8 "Account events", in the transaction that spends the link: the new account, and
    // each partner newly linked to an account (an existing link records nothing).
    if (!existing)
      await recordEvent(tx, tenant.id, 'account.created', {
        userId: user.id,
        email: user.email,
        source: 'sign-in-link',
        bpNumbers: onRecord,
      });
    for (const bpNumber of onRecord) {
      if (await linkBusinessPartner(tx, tenant.id, user.id, bpNumber)) {
        await recordEvent(tx, tenant.id, 'subscription.linked', {
          userId: user.id,
          bpNumber,
          subscriptionId,
          method: 'sign-in-link',
          emailStored: null,
        });
      }
    }
    return user;
  }

  /** Password accounts exist where the tenant offers password login or the kicker account (§6 kicker_auth). */
  function requirePasswordLogin(tenant: ServerTenant) {
    if (!tenant.login.password && !isFeatureOn(tenant, 'kicker-auth')) {
      throw new HttpError(404, 'not_found', 'This portal does not offer sign-in with a password.');
    }
  }

  return {
    startSession,

    /**
     * Queues a login link for the address; the sender mails it only when the address has an
     * account of this tenant. The answer is the same either way, and so is the work done for it.
     * The link leads to `returnTo` when that is a same-portal path (engine/domain/returnTo.ts,
     * the rule the screen navigates by); any other value is left out, not refused.
     */
    async requestMagicLink(
      tenant: ServerTenant,
      input: { email: string; returnTo?: string },
      origin: RequestOrigin,
    ): Promise<void> {
      if (!tenant.login.magicLink)
        throw new HttpError(404, 'not_found', 'This portal does not offer login links.');
      const email = normalizeEmail(input.email);
      await limit(tenant, 'magic-link', { address: email, client: origin.client });
      const returnTo = samePortalPathOrUndefined(input.returnTo);
      await queueSignInMail(tenant, 'magic-link', email, origin, returnTo ? { returnTo } : {});
    },

    /**
     * POST /login/email-zip: queues a login link that the sender mails only when the account speaks
     * for a business partner with that zip code. portal-core.md §7 answers the login itself; here
     * an address and a zip code (both easy to learn) open nothing without the mailbox, and the
     * answer cannot tell whether the pair matched (README "Sign-in safety").
     */
    async requestEmailZipLink(
      tenant: ServerTenant,
      input: { email: string; zipcode: string },
      origin: RequestOrigin,
    ): Promise<void> {
      const email = normalizeEmail(input.email);
      await limit(tenant, 'email-zip', { address: email, client: origin.client });
      await queueSignInMail(tenant, 'email-zip', email, origin, { zipcode: input.zipcode });
    },

    /**
     * POST /login/bulk-renewal: queues a sign-in link that the sender mails only when the address is
     * on record for a business partner with that last name and zip code (signInMailJobs.ts); the
     * link opens the account's session on /bulk-renewal. Same answer and work whatever matched.
     */
    async requestBulkRenewalLink(
      tenant: ServerTenant,
      input: { email: string; lastName: string; zipcode: string },
      origin: RequestOrigin,
    ): Promise<void> {
      const email = normalizeEmail(input.email);
      await limit(tenant, 'bulk-renewal', { address: email, client: origin.client });
      await queueSignInMail(tenant, 'bulk-renewal', email, origin, {
        lastName: input.lastName,
        zipcode: input.zipcode,
      });
    },

    /**
     * Mails a sign-in link to an address on record for business partners (a partial login's
     * confirm_email), written with its token in one transaction. Opening it opens the session the
     * partial login asked for — login source order-number or contact-form, "logged in only" for
     * that one subscription (portal-core.md §4) — now that the mailbox has proved who asks.
     */
    async sendPartnerSignInLink(
      tenant: ServerTenant,
      input: {
        email: string;
        bpNumbers: string[];
        subscriptionId: string;
        loginSource: 'order-number' | 'contact-form';
        returnTo?: string;
      },
      origin: RequestOrigin,
    ): Promise<void> {
      const token = newSecretToken();
      const locale = origin.locale ?? tenant.defaultLocale;
      const mail = authMail('partnerSignIn', locale, {
        tenant: tenant.name,
        link: `${origin.portalUrl}login?p=${encodeURIComponent(token)}${langQuery(locale)}`,
        minutes: MAGIC_LINK_MINUTES,
      });
      const payload: PartnerSignInPayload = {
        bpNumbers: input.bpNumbers,
        subscriptionId: input.subscriptionId,
        loginSource: input.loginSource,
        returnTo: samePortalPathOrUndefined(input.returnTo),
      };
      await deps.db.transaction(async (tx) => {
        await insertLoginToken(tx, tenant.id, {
          tokenHash: hashToken(token),
          email: input.email,
          purpose: PARTNER_SIGN_IN_PURPOSE,
          expiresAt: inMinutes(MAGIC_LINK_MINUTES),
          payload,
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: input.email, from: deps.mailFrom, ...mail });
      });
    },

    /**
     * POST /login/token: spends a single-use link token and opens a session — login source "token"
     * (login link), "email-zip" (the e-mail + zip link) or the partial login's own (partner link,
     * scoped to its subscription), §4.
     */
    async loginWithToken(tenant: ServerTenant, token: string, client = 'unknown'): Promise<LinkLoginResult> {
      return spendingToken(tenant, client, () =>
        deps.db.transaction(async (tx) => {
          const spent = await consumeLoginToken(tx, tenant.id, hashToken(token), LINK_LOGIN_PURPOSES, now());
          if (!spent) throw invalidLink();
          if (spent.purpose === PARTNER_SIGN_IN_PURPOSE) {
            const data = spent.payload as PartnerSignInPayload;
            const user = await partnerSignIn(tx, tenant, spent.email, data.bpNumbers, data.subscriptionId);
            const login = await openSession(
              tx,
              tenant,
              user,
              data.loginSource,
              data.subscriptionId ?? undefined,
            );
            const returnTo = samePortalPathOrUndefined(data.returnTo);
            return returnTo ? { ...login, returnTo } : login;
          }
          const user = await findUserByEmail(tx, tenant.id, spent.email);
          if (!user) throw invalidLink();
          return openSession(tx, tenant, user, spent.purpose === EMAIL_ZIP_PURPOSE ? 'email-zip' : 'token');
        }),
      );
    },

    /** E-mail and password (login source "email"); the same answer for an unknown address and a wrong password. */
    async loginWithPassword(
      tenant: ServerTenant,
      input: { email: string; password: string },
      origin: RequestOrigin,
      loginSource: 'email' | 'kicker-auth' = 'email',
    ): Promise<LoginResult> {
      requirePasswordLogin(tenant);
      const email = normalizeEmail(input.email);
      // Issue 10, finding 7: limits per client and per address and client, and a per-address
      // back-off that holds back only clients that failed on it (server/auth/rateLimit.ts).
      // Wrong passwords count, correct ones give their place back (issue 22).
      const subject = { address: email, client: origin.client };
      const at = now();
      await limitPasswordAttempt(deps.db, tenant.id, limits, subject, at);
      const user = await findUserByEmail(deps.db, tenant.id, email);
      const valid = await verifyPassword(input.password, user?.passwordHash);
      if (!user || !valid) {
        await recordPasswordFailure(deps.db, tenant.id, limits, subject, at);
        throw invalidCredentials();
      }
      await recordPasswordSuccess(deps.db, tenant.id, limits, subject, at);
      return startSession(tenant, user, loginSource);
    },

    /**
     * Create-account: nothing is stored as a user until the address is confirmed through the
     * e-mailed link; an address that has an account gets a hint instead (decided by the mail
     * sender, server/auth/signInMailJobs.ts). Same answer and same work either way.
     */
    async register(tenant: ServerTenant, input: Registration, origin: RequestOrigin): Promise<void> {
      requirePasswordLogin(tenant);
      checkNewPassword(input.password, input.passwordConfirm);
      const email = normalizeEmail(input.email);
      await limit(tenant, 'register', { address: email, client: origin.client });
      const passwordHash = await hashPassword(input.password);
      await queueSignInMail(tenant, 'register', email, origin, {
        displayName: input.displayName.trim(),
        firstName: input.firstName?.trim() || undefined,
        lastName: input.lastName?.trim() || undefined,
        passwordHash,
      });
    },

    /** The confirmation link creates the account and logs in. */
    async confirmRegistration(tenant: ServerTenant, token: string, client: string): Promise<LoginResult> {
      requirePasswordLogin(tenant);
      return spendingToken(tenant, client, () =>
        deps.db.transaction(async (tx) => {
          const spent = await consumeLoginToken(tx, tenant.id, hashToken(token), 'register', now());
          if (!spent) throw invalidLink();
          if (await findUserByEmail(tx, tenant.id, spent.email))
            throw new HttpError(
              409,
              'account_exists',
              'An account with this e-mail address exists already. Please log in.',
            );
          const data = spent.payload as {
            displayName: string;
            firstName?: string;
            lastName?: string;
            passwordHash: string;
          };
          const user = await createUser(tx, tenant.id, {
            email: spent.email,
            displayName: data.displayName,
            firstName: data.firstName,
            lastName: data.lastName,
          });
          await setPasswordHash(tx, tenant.id, user.id, data.passwordHash);
          await recordEvent(tx, tenant.id, 'account.created', {
            userId: user.id,
            email: user.email,
            source: 'registration',
            bpNumbers: [],
          });
          const accessToken = newSecretToken();
          await insertSession(tx, tenant.id, {
            tokenHash: hashToken(accessToken),
            userId: user.id,
            loginSource: 'email',
            expiresAt: new Date(now().getTime() + idleMs(tenant)),
          });
          return { user: { id: user.id, email: user.email }, loginSource: 'email', accessToken };
        }),
      );
    },

    /** Forgot password (§5: e-mail trimmed, max 50): queued; the sender mails a reset link when the account exists. */
    async forgotPassword(
      tenant: ServerTenant,
      input: { email: string },
      origin: RequestOrigin,
    ): Promise<void> {
      requirePasswordLogin(tenant);
      const email = normalizeEmail(input.email);
      await limit(tenant, 'reset', { address: email, client: origin.client });
      await queueSignInMail(tenant, 'reset', email, origin);
    },

    /** Sets the new password, ends every other session of the account and logs in. */
    async resetPassword(
      tenant: ServerTenant,
      input: { token: string; password: string; passwordConfirm: string },
      client: string,
    ): Promise<LoginResult> {
      requirePasswordLogin(tenant);
      checkNewPassword(input.password, input.passwordConfirm);
      return spendingToken(tenant, client, async () => {
        const passwordHash = await hashPassword(input.password);
        return deps.db.transaction(async (tx) => {
          const spent = await consumeLoginToken(tx, tenant.id, hashToken(input.token), 'reset', now());
          if (!spent) throw invalidLink();
          const user = await findUserByEmail(tx, tenant.id, spent.email);
          if (!user) throw invalidLink();
          await setPasswordHash(tx, tenant.id, user.id, passwordHash);
          await revokeUserSessions(tx, tenant.id, user.id);
          // A reset ends kicker sign-on sessions too: a stolen 30-day kickeruser cookie must not outlive it.
          await revokeSsoSessionsOfUser(tx, tenant.id, user.id);
          const accessToken = newSecretToken();
          await insertSession(tx, tenant.id, {
            tokenHash: hashToken(accessToken),
            userId: user.id,
            loginSource: 'email',
            expiresAt: new Date(now().getTime() + idleMs(tenant)),
          });
          return { user: { id: user.id, email: user.email }, loginSource: 'email', accessToken };
        });
      });
    },

    /**
     * Resolves the `x-auth-token` of a request. A session of another tenant is not found (every
     * lookup carries the tenant); an idle session is expired and answered with 401 session_expired.
     */
    async authenticate(tenant: ServerTenant, accessToken: string | undefined): Promise<AuthenticatedUser> {
      if (!accessToken) throw unauthorized();
      const session = await findLiveSession(deps.db, tenant.id, hashToken(accessToken));
      if (!session) throw unauthorized();
      const current = now();
      if (new Date(session.expires_at).getTime() <= current.getTime()) {
        await revokeSession(deps.db, tenant.id, session.id);
        throw unauthorized('session_expired', 'Your session has expired. Please log in again.');
      }
      // Sliding idle timeout; written at most once a minute to keep reads cheap.
      if (current.getTime() - new Date(session.last_seen_at).getTime() > 60_000) {
        await touchSession(deps.db, tenant.id, session.id, new Date(current.getTime() + idleMs(tenant)));
      }
      return {
        id: session.user_id,
        email: session.user_email,
        sessionId: session.id,
        loginSource: session.login_source,
        subscriptionId: session.subscription_id,
        subscriptionDataVersion: session.subscription_data_version,
      };
    },

    async logout(tenant: ServerTenant, sessionId: string): Promise<void> {
      await revokeSession(deps.db, tenant.id, sessionId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
