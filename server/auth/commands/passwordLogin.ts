/** E-mail and password sign-in (portal-core.md §2 "Login", §5). */
import { normalizeEmail } from '../../../engine/domain/fieldRules';
import type { ServerTenant } from '../../tenancy/tenantContext';
import type { RequestOrigin } from '../../http/requestOrigin';
import { findUserByEmail } from '../../store/userStore';
import type { LoginResult } from '../../../schemas/generated/login-result';
import { verifyPassword } from '../passwords';
import { limitGuess, recordGuessFailure, recordGuessSuccess } from '../rateLimit';
import { invalidCredentials, requirePasswordLogin, type AuthKit } from '../authKit';

/** Login source "email" (or the kicker account's); the same answer for an unknown address and a wrong password. */
export async function loginWithPassword(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { email: string; password: string },
  origin: RequestOrigin,
  loginSource: 'email' | 'kicker-auth' = 'email',
): Promise<LoginResult> {
  requirePasswordLogin(tenant);
  const email = normalizeEmail(input.email);
  // Limits per client and per address and client, and a per-address back-off that holds back
  // only clients that failed on it (server/auth/rateLimit.ts), so a guesser is slowed and the owner
  // never locked out. Wrong passwords count, correct ones give their place back.
  const subject = { target: email, client: origin.client };
  const at = kit.now();
  await limitGuess(kit.db, tenant.id, kit.limits, 'password', subject, at);
  const user = await findUserByEmail(kit.db, tenant.id, email);
  const valid = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !valid) {
    await recordGuessFailure(kit.db, tenant.id, kit.limits, 'password', subject, at);
    throw invalidCredentials();
  }
  await recordGuessSuccess(kit.db, tenant.id, kit.limits, 'password', subject, at);
  return kit.startSession(tenant, user, loginSource);
}
