import type { Database } from '../db/database';
import type { Mailer } from '../mail/mailer';
import { magicLinkMail } from '../mail/magicLinkMail';
import { findUserByEmail } from '../store/userStore';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import type { ServerTenant } from '../tenancy/tenantContext';
import { unauthorized } from '../http/errors';
import { consumeLoginToken, findLiveSession, insertLoginToken, insertSession, revokeSession, touchSession } from './authStore';
import { hashToken, newSecretToken } from './tokens';

export const MAGIC_LINK_MINUTES = 15;
export const MAGIC_LINK_PURPOSE = 'magic-link';

export interface AuthenticatedUser {
  id: string;
  email: string;
  sessionId: string;
  loginSource: string;
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
}

/**
 * Sign-in decisions (portal-core.md §2 "Login", §4 auth state, §7 login calls). Tokens and
 * sessions live in the database, hashed, so any number of server instances share them.
 */
export function createAuthService(deps: AuthServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const idleMs = (tenant: ServerTenant) => tenant.login.sessionIdleMinutes * 60_000;

  async function startSession(tenant: ServerTenant, user: { id: string; email: string }, loginSource: string): Promise<LoginResult> {
    const accessToken = newSecretToken();
    await insertSession(deps.db, tenant.id, {
      tokenHash: hashToken(accessToken),
      userId: user.id,
      loginSource,
      expiresAt: new Date(now().getTime() + idleMs(tenant)),
    });
    return { user: { id: user.id, email: user.email }, loginSource, accessToken };
  }

  return {
    /**
     * Sends a login link when the e-mail belongs to an account of this tenant. The answer is the
     * same either way, so nobody learns whether an address has an account.
     */
    async requestMagicLink(tenant: ServerTenant, input: { email: string; locale?: string; portalUrl: string }): Promise<void> {
      const email = normalizeEmail(input.email);
      const user = await findUserByEmail(deps.db, tenant.id, email);
      if (!user) return;
      const token = newSecretToken();
      await insertLoginToken(deps.db, tenant.id, {
        tokenHash: hashToken(token),
        email,
        purpose: MAGIC_LINK_PURPOSE,
        expiresAt: new Date(now().getTime() + MAGIC_LINK_MINUTES * 60_000),
      });
      const link = `${input.portalUrl}login?p=${encodeURIComponent(token)}`;
      const mail = magicLinkMail(input.locale ?? tenant.defaultLocale, { tenant: tenant.name, link, minutes: MAGIC_LINK_MINUTES });
      await deps.mailer.send({ tenantId: tenant.id, to: email, from: deps.mailFrom, ...mail });
    },

    /** POST /login/token: spends a single-use link token and opens a session (login source "token"). */
    async loginWithToken(tenant: ServerTenant, token: string): Promise<LoginResult> {
      const email = await consumeLoginToken(deps.db, tenant.id, hashToken(token), MAGIC_LINK_PURPOSE);
      if (!email) throw unauthorized('invalid_token', 'This login link is invalid or has expired.');
      const user = await findUserByEmail(deps.db, tenant.id, email);
      if (!user) throw unauthorized('invalid_token', 'This login link is invalid or has expired.');
      return startSession(tenant, user, 'token');
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
      return { id: session.user_id, email: session.user_email, sessionId: session.id, loginSource: session.login_source };
    },

    async logout(tenant: ServerTenant, sessionId: string): Promise<void> {
      await revokeSession(deps.db, tenant.id, sessionId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
