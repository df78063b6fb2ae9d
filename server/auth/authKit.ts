import type { Database, Queryable } from '../db/database';
import { enqueueMailJob, type MailJobBase, type MailJobKind } from '../store/mailQueueStore';
import { isValidPassword } from '../../engine/domain/fieldRules';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import type { ServerTenant } from '../tenancy/tenantContext';
import { badRequest, HttpError, unauthorized } from '../http/errors';
import { insertSession } from '../store/authStore';
import {
  countingFailuresOfSecret,
  DEFAULT_SIGN_IN_LIMITS,
  limitFactCheckedAttempt,
  limitSignInAttempt,
  signInRules,
  type SignInLimits,
} from './rateLimit';
import { hashToken, newSecretToken } from './tokens';
import type { LoginResult } from '../../schemas/generated/login-result';
import type { RequestOrigin } from '../http/requestOrigin';

/** How a session was opened (portal-core.md §4). */
export type LoginSource = LoginResult['loginSource'];

export interface AuthServiceDeps {
  db: Database;
  mailFrom: string;
  now?: () => Date;
  signInLimits?: SignInLimits;
}

export const invalidCredentials = () =>
  unauthorized('invalid_credentials', 'The e-mail address or the password is wrong.');
export const invalidLink = () => unauthorized('invalid_token', 'This link is invalid or has expired.');

/** §5: the password rule, and the confirmation must match. */
export function checkNewPassword(password: string, passwordConfirm: string): void {
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

/** Password accounts exist where the tenant offers password login or the kicker account (§6 kicker_auth). */
export function requirePasswordLogin(tenant: ServerTenant): void {
  if (!tenant.login.password && !isFeatureOn(tenant, 'kicker-auth')) {
    throw new HttpError(
      404,
      'password_login_disabled',
      'This portal does not offer sign-in with a password.',
    );
  }
}

/**
 * What every sign-in command shares (server/auth/commands/*): the database, the clock, the sign-in
 * limits, sessions and the sign-in mail queue. One per server, made by createAuthService.
 */
export function createAuthKit(deps: AuthServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
  const idleMs = (tenant: ServerTenant) => tenant.login.sessionIdleMinutes * 60_000;

  /** Opens a session in `db` (a transaction's, when the login spends a token in it). */
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

  return {
    db: deps.db,
    mailFrom: deps.mailFrom,
    now,
    limits,
    idleMs,
    inMinutes: (minutes: number) => new Date(now().getTime() + minutes * 60_000),
    /** A sign-in request counted against the address and the client (server/auth/rateLimit.ts). */
    limit: (tenant: ServerTenant, action: string, subject: { address?: string; client: string }) =>
      limitSignInAttempt(deps.db, tenant.id, limits, action, subject, now()),
    /**
     * A sign-in request whose link goes out only when the facts it brings hold (e-mail + zip, bulk
     * renewal), or whose mail the owner signs in by only when it was theirs (a registration):
     * counted against the client and the address *and* client; the mailbox is capped where the mail
     * is made (server/auth/rateLimit.ts limitFactCheckedAttempt).
     */
    limitFactChecked: (tenant: ServerTenant, action: string, subject: { address: string; client: string }) =>
      limitFactCheckedAttempt(deps.db, tenant.id, limits, action, subject, now()),
    /** A link's token spent by a client: only refused tokens count against the client. */
    spendingToken: <T>(tenant: ServerTenant, client: string, attempt: () => Promise<T>) =>
      countingFailuresOfSecret(deps.db, tenant.id, signInRules(limits, 'token', { client }), now(), attempt),
    openSession,
    startSession: (
      tenant: ServerTenant,
      user: { id: string; email: string },
      loginSource: LoginSource,
      subscriptionId?: string,
    ) => openSession(deps.db, tenant, user, loginSource, subscriptionId),

    /**
     * Queues a sign-in request for the mail sender (server/auth/signInMailJobs.ts decides there
     * whether the address has an account). The request itself does one insert whatever the
     * address: its answer and its timing tell nobody whether an account exists.
     */
    async queueSignInMail(
      tenant: ServerTenant,
      kind: MailJobKind,
      email: string,
      origin: RequestOrigin,
      extra: Record<string, unknown> = {},
    ): Promise<void> {
      const base: MailJobBase = {
        email,
        portalUrl: origin.portalUrl,
        locale: origin.locale ?? tenant.defaultLocale,
        tenantName: tenant.name,
        from: deps.mailFrom,
        requestedAt: now().toISOString(),
      };
      await enqueueMailJob(deps.db, { tenantId: tenant.id, kind, payload: { ...base, ...extra } });
    },
  };
}

export type AuthKit = ReturnType<typeof createAuthKit>;
