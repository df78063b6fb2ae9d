/** The session behind a request's `x-auth-token` (portal-core.md §4 auth state, §8 idle timeout). */
import type { ServerTenant } from '../../tenancy/tenantContext';
import { unauthorized } from '../../http/errors';
import { findLiveSession, revokeSession, touchSession } from '../../store/authStore';
import { hashToken } from '../tokens';
import type { AuthKit } from '../authKit';

export interface AuthenticatedUser {
  id: string;
  email: string;
  sessionId: string;
  loginSource: string;
  /** Set for partial logins that may act on one subscription only (portal-core.md §4). */
  subscriptionId: string | null;
  /**
   * The tenant's subscription data version and the day when the request began (migration 015): an
   * answer of GET /subscriptions made under the same value is still true.
   */
  subscriptionDataVersion: string;
}

/**
 * A session of another tenant is not found (every lookup carries the tenant); an idle session is
 * expired and answered with 401 session_expired.
 */
export async function authenticate(
  kit: AuthKit,
  tenant: ServerTenant,
  accessToken: string | undefined,
): Promise<AuthenticatedUser> {
  if (!accessToken) throw unauthorized();
  const session = await findLiveSession(kit.db, tenant.id, hashToken(accessToken));
  if (!session) throw unauthorized();
  const current = kit.now();
  if (new Date(session.expires_at).getTime() <= current.getTime()) {
    await revokeSession(kit.db, tenant.id, session.id);
    throw unauthorized('session_expired', 'Your session has expired. Please log in again.');
  }
  // Sliding idle timeout; written at most once a minute to keep reads cheap.
  if (current.getTime() - new Date(session.last_seen_at).getTime() > 60_000) {
    await touchSession(kit.db, tenant.id, session.id, new Date(current.getTime() + kit.idleMs(tenant)));
  }
  return {
    id: session.user_id,
    email: session.user_email,
    sessionId: session.id,
    loginSource: session.login_source,
    subscriptionId: session.subscription_id,
    subscriptionDataVersion: session.subscription_data_version,
  };
}

export async function logout(kit: AuthKit, tenant: ServerTenant, sessionId: string): Promise<void> {
  await revokeSession(kit.db, tenant.id, sessionId);
}
