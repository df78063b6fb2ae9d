import type { Queryable } from '../db/database';
import { hashPassword } from '../auth/passwords';
import type { DemoLogin } from './demoData';

/** The password of every demo login on tenants with password or kicker-account sign-in (README "Demo tenants"). */
export const DEMO_PASSWORD = 'Lesen2026';

export type PasswordSignInTenant = { id: string; features: readonly string[]; login: { password: boolean } };

/** Whether the tenant's visitors sign in with a password: its own password login or kicker accounts. */
export function hasPasswordSignIn(tenant: PasswordSignInTenant): boolean {
  return tenant.login.password || tenant.features.includes('kicker-auth');
}

/**
 * Gives the demo logins of password tenants the demo password, once: accounts that have a
 * password already (changed in the demo) keep theirs.
 */
export async function setDemoPasswords(
  db: Queryable,
  tenants: readonly PasswordSignInTenant[],
  logins: readonly DemoLogin[],
): Promise<void> {
  const passwordTenants = new Set(tenants.filter(hasPasswordSignIn).map((tenant) => tenant.id));
  const hash = await hashPassword(DEMO_PASSWORD);
  for (const login of logins.filter((l) => passwordTenants.has(l.tenantId))) {
    await db.query(
      `update users set password_hash = $3 where tenant_id = $1 and email = $2 and password_hash is null`,
      [login.tenantId, login.email, hash],
    );
  }
}
