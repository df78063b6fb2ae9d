/** Forgotten passwords (portal-core.md §5). */
import { recordEvent } from '../../events/recordEvent';
import { normalizeEmail } from '../../../engine/domain/fieldRules';
import type { ServerTenant } from '../../tenancy/tenantContext';
import type { RequestOrigin } from '../../http/requestOrigin';
import {
  consumeLoginToken,
  peekLoginToken,
  revokeUserSessions,
  voidLoginTokens,
} from '../../store/authStore';
import { revokeSsoSessionsOfUser } from '../../store/ssoSessionStore';
import { findUserByEmail, setPasswordHash } from '../../store/userStore';
import type { LoginResult } from '../../../schemas/generated/login-result';
import { hashPassword } from '../passwords';
import { hashToken } from '../tokens';
import { checkNewPassword, invalidLink, requirePasswordLogin, type AuthKit } from '../authKit';
import { LINK_LOGIN_PURPOSES } from '../signInMailJobs';

/** §5 (e-mail trimmed, max 50): queued; the sender mails a reset link when the account exists. */
export async function forgotPassword(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { email: string },
  origin: RequestOrigin,
): Promise<void> {
  requirePasswordLogin(tenant);
  const email = normalizeEmail(input.email);
  const countedIn = await kit.limit(tenant, 'reset', { address: email, client: origin.client });
  await kit.queueSignInMail(tenant, 'reset', email, origin, { countedIn });
}

/**
 * Sets the new password, ends every other session of the account, voids the reset and sign-in links
 * still open for its address (an older reset link would set another password, a sign-in link open
 * a session the reset meant to end), records the change as an account event, and signs in.
 */
export async function resetPassword(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { token: string; password: string; passwordConfirm: string },
  client: string,
): Promise<LoginResult> {
  requirePasswordLogin(tenant);
  checkNewPassword(input.password, input.passwordConfirm);
  return kit.spendingToken(tenant, client, async () => {
    // The link first: the password is hashed (scrypt, costly) only for a link that can be spent,
    // also when a client over its budget still tries one (authKit.ts spendingToken).
    if (!(await peekLoginToken(kit.db, tenant.id, hashToken(input.token), 'reset', kit.now())))
      throw invalidLink();
    const passwordHash = await hashPassword(input.password);
    return kit.db.transaction(async (tx) => {
      const spent = await consumeLoginToken(tx, tenant.id, hashToken(input.token), 'reset', kit.now());
      if (!spent) throw invalidLink();
      const user = await findUserByEmail(tx, tenant.id, spent.email);
      if (!user) throw invalidLink();
      await setPasswordHash(tx, tenant.id, user.id, passwordHash);
      await revokeUserSessions(tx, tenant.id, user.id);
      await voidLoginTokens(tx, tenant.id, spent.email, ['reset', ...LINK_LOGIN_PURPOSES], kit.now());
      // A reset ends kicker sign-on sessions too: a stolen 30-day kickeruser cookie must not outlive it.
      await revokeSsoSessionsOfUser(tx, tenant.id, user.id);
      await recordEvent(tx, tenant.id, 'account.password_reset', { userId: user.id });
      return kit.openSession(tx, tenant, user, 'email');
    });
  });
}
