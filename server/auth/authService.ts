import type { Database } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { authMail, type AuthMail } from '../mail/authMails';
import { createUser, findUserByEmail, setPasswordHash } from '../store/userStore';
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
} from './authStore';
import { hashPassword, verifyPassword } from './passwords';
import { DEFAULT_SIGN_IN_LIMITS, limitSignInAttempt, type SignInLimits } from './rateLimit';
import { hashToken, newSecretToken } from './tokens';

export const MAGIC_LINK_MINUTES = 15;
export const MAGIC_LINK_PURPOSE = 'magic-link';
const REGISTRATION_MINUTES = 24 * 60;
const RESET_MINUTES = 30;

export interface AuthenticatedUser {
  id: string;
  email: string;
  sessionId: string;
  loginSource: string;
  /** Set for partial logins that may act on one subscription only (portal-core.md §4). */
  subscriptionId: string | null;
}

export interface LoginResult {
  user: { id: string; email: string };
  loginSource: string;
  accessToken: string;
}

export interface AuthServiceDeps {
  db: Database;
  mailer: Mailer;
  mailFrom: string;
  now?: () => Date;
  signInLimits?: SignInLimits;
}

/** Where a request comes from, for rate limits and for the links in e-mails. */
export interface RequestOrigin {
  /** `http://host/t/acme/` — the portal's base URL as the browser sees it. */
  portalUrl: string;
  /** The client address (rate limit per client). */
  client: string;
  locale?: string;
}

export interface Registration {
  email: string;
  password: string;
  passwordConfirm: string;
  displayName: string;
  firstName?: string;
  lastName?: string;
}

const invalidCredentials = () => unauthorized('invalid_credentials', 'The e-mail address or the password is wrong.');
const invalidLink = () => unauthorized('invalid_token', 'This link is invalid or has expired.');

/** §5: the password rule, and the confirmation must match. */
function checkNewPassword(password: string, passwordConfirm: string): void {
  if (!isValidPassword(password)) {
    throw badRequest('weak_password', 'The password needs 8 to 20 characters with an upper-case letter, a lower-case letter and a digit.', [{ field: '/password', message: 'does not meet the password rule' }]);
  }
  if (password !== passwordConfirm) {
    throw badRequest('password_mismatch', 'The two passwords differ.', [{ field: '/passwordConfirm', message: 'does not match the password' }]);
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
  const idleMs = (tenant: ServerTenant) => tenant.login.sessionIdleMinutes * 60_000;
  const inMinutes = (minutes: number) => new Date(now().getTime() + minutes * 60_000);

  async function startSession(
    tenant: ServerTenant,
    user: { id: string; email: string },
    loginSource: string,
    subscriptionId?: string,
  ): Promise<LoginResult> {
    const accessToken = newSecretToken();
    await insertSession(deps.db, tenant.id, {
      tokenHash: hashToken(accessToken),
      userId: user.id,
      loginSource,
      expiresAt: new Date(now().getTime() + idleMs(tenant)),
      subscriptionId,
    });
    return { user: { id: user.id, email: user.email }, loginSource, accessToken };
  }

  async function sendLinkMail(tenant: ServerTenant, kind: AuthMail, to: string, origin: RequestOrigin, query: string, minutes: number) {
    const link = `${origin.portalUrl}login?${query}`;
    const mail = authMail(kind, origin.locale ?? tenant.defaultLocale, { tenant: tenant.name, link, minutes });
    await deps.mailer.send({ tenantId: tenant.id, to, from: deps.mailFrom, ...mail });
  }

  async function issueToken(tenant: ServerTenant, email: string, purpose: string, minutes: number, payload?: unknown): Promise<string> {
    const token = newSecretToken();
    await insertLoginToken(deps.db, tenant.id, { tokenHash: hashToken(token), email, purpose, expiresAt: inMinutes(minutes), payload });
    return token;
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
     * Sends a login link when the e-mail belongs to an account of this tenant. The answer is the
     * same either way, so nobody learns whether an address has an account.
     */
    async requestMagicLink(tenant: ServerTenant, input: { email: string }, origin: RequestOrigin): Promise<void> {
      if (!tenant.login.magicLink) throw new HttpError(404, 'not_found', 'This portal does not offer login links.');
      const email = normalizeEmail(input.email);
      await limit(tenant, 'magic-link', { address: email, client: origin.client });
      const user = await findUserByEmail(deps.db, tenant.id, email);
      if (!user) return;
      const token = await issueToken(tenant, email, MAGIC_LINK_PURPOSE, MAGIC_LINK_MINUTES);
      await sendLinkMail(tenant, 'magicLink', email, origin, `p=${encodeURIComponent(token)}`, MAGIC_LINK_MINUTES);
    },

    /** POST /login/token: spends a single-use link token and opens a session (login source "token"). */
    async loginWithToken(tenant: ServerTenant, token: string, client = 'unknown'): Promise<LoginResult> {
      await limit(tenant, 'token', { client });
      const spent = await consumeLoginToken(deps.db, tenant.id, hashToken(token), MAGIC_LINK_PURPOSE, now());
      if (!spent) throw invalidLink();
      const user = await findUserByEmail(deps.db, tenant.id, spent.email);
      if (!user) throw invalidLink();
      return startSession(tenant, user, 'token');
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
      await limit(tenant, 'password', { address: email, client: origin.client });
      const user = await findUserByEmail(deps.db, tenant.id, email);
      const valid = await verifyPassword(input.password, user?.passwordHash);
      if (!user || !valid) throw invalidCredentials();
      return startSession(tenant, user, loginSource);
    },

    /**
     * Create-account: nothing is stored as a user until the address is confirmed through the
     * e-mailed link; an address that has an account gets a hint instead. Same answer either way.
     */
    async register(tenant: ServerTenant, input: Registration, origin: RequestOrigin): Promise<void> {
      requirePasswordLogin(tenant);
      checkNewPassword(input.password, input.passwordConfirm);
      const email = normalizeEmail(input.email);
      await limit(tenant, 'register', { address: email, client: origin.client });
      // Hash first, whether or not the address has an account: the answer's timing tells nothing.
      const passwordHash = await hashPassword(input.password);
      if (await findUserByEmail(deps.db, tenant.id, email)) {
        await sendLinkMail(tenant, 'accountExists', email, origin, 'forgot=1', RESET_MINUTES);
        return;
      }
      const payload = {
        displayName: input.displayName.trim(),
        firstName: input.firstName?.trim() || undefined,
        lastName: input.lastName?.trim() || undefined,
        passwordHash,
      };
      const token = await issueToken(tenant, email, 'register', REGISTRATION_MINUTES, payload);
      await sendLinkMail(tenant, 'confirmRegistration', email, origin, `confirm=${encodeURIComponent(token)}`, REGISTRATION_MINUTES);
    },

    /** The confirmation link creates the account and logs in. */
    async confirmRegistration(tenant: ServerTenant, token: string, client: string): Promise<LoginResult> {
      requirePasswordLogin(tenant);
      await limit(tenant, 'token', { client });
      return deps.db.transaction(async (tx) => {
        const spent = await consumeLoginToken(tx, tenant.id, hashToken(token), 'register', now());
        if (!spent) throw invalidLink();
        if (await findUserByEmail(tx, tenant.id, spent.email)) throw new HttpError(409, 'account_exists', 'An account with this e-mail address exists already. Please log in.');
        const data = spent.payload as { displayName: string; firstName?: string; lastName?: string; passwordHash: string };
        const user = await createUser(tx, tenant.id, { email: spent.email, displayName: data.displayName, firstName: data.firstName, lastName: data.lastName });
        await setPasswordHash(tx, tenant.id, user.id, data.passwordHash);
        const accessToken = newSecretToken();
        await insertSession(tx, tenant.id, { tokenHash: hashToken(accessToken), userId: user.id, loginSource: 'email', expiresAt: new Date(now().getTime() + idleMs(tenant)) });
        return { user: { id: user.id, email: user.email }, loginSource: 'email', accessToken };
      });
    },

    /** Forgot password (§5: e-mail trimmed, max 50): a reset link when the account exists; same answer either way. */
    async forgotPassword(tenant: ServerTenant, input: { email: string }, origin: RequestOrigin): Promise<void> {
      requirePasswordLogin(tenant);
      const email = normalizeEmail(input.email);
      await limit(tenant, 'reset', { address: email, client: origin.client });
      if (!(await findUserByEmail(deps.db, tenant.id, email))) return;
      const token = await issueToken(tenant, email, 'reset', RESET_MINUTES);
      await sendLinkMail(tenant, 'resetPassword', email, origin, `reset=${encodeURIComponent(token)}`, RESET_MINUTES);
    },

    /** Sets the new password, ends every other session of the account and logs in. */
    async resetPassword(tenant: ServerTenant, input: { token: string; password: string; passwordConfirm: string }, client: string): Promise<LoginResult> {
      requirePasswordLogin(tenant);
      checkNewPassword(input.password, input.passwordConfirm);
      await limit(tenant, 'token', { client });
      const passwordHash = await hashPassword(input.password);
      return deps.db.transaction(async (tx) => {
        const spent = await consumeLoginToken(tx, tenant.id, hashToken(input.token), 'reset', now());
        if (!spent) throw invalidLink();
        const user = await findUserByEmail(tx, tenant.id, spent.email);
        if (!user) throw invalidLink();
        await setPasswordHash(tx, tenant.id, user.id, passwordHash);
        await revokeUserSessions(tx, tenant.id, user.id);
        const accessToken = newSecretToken();
        await insertSession(tx, tenant.id, { tokenHash: hashToken(accessToken), userId: user.id, loginSource: 'email', expiresAt: new Date(now().getTime() + idleMs(tenant)) });
        return { user: { id: user.id, email: user.email }, loginSource: 'email', accessToken };
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
      };
    },

    async logout(tenant: ServerTenant, sessionId: string): Promise<void> {
      await revokeSession(deps.db, tenant.id, sessionId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
