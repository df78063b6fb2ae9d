/**
 * The demo logins of a tenant as the seed makes them (entities/logins.ts: the personas of
 * entities/businessPartners.ts with their accounts in entities/users.ts, SHARED_DEMO_EMAIL among
 * them). A pure function of the tenant: the same addresses on every run and day. The development
 * pages that sign someone in without a link (the QA preview, the studio) do it for these addresses
 * only, never for an account that signed up or was imported.
 */
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { buildDemoData, type DemoTenant } from './demoData';

export interface DemoLoginSummary {
  email: string;
  description: string;
}

const demoLoginCache = new Map<string, DemoLoginSummary[]>();

/** The tenant's demo logins: what the seed writes (its logins do not depend on the day). */
export function demoLoginsOf(tenant: DemoTenant): DemoLoginSummary[] {
  let logins = demoLoginCache.get(tenant.id);
  if (!logins) {
    logins = buildDemoData(tenant, new Date()).logins.map(({ email, description }) => ({
      email,
      description,
    }));
    demoLoginCache.set(tenant.id, logins);
  }
  return logins;
}

/** The demo login of this tenant with this address (compared as the sign-in compares them). */
export function demoLoginOf(tenant: DemoTenant, email: string): DemoLoginSummary | undefined {
  const wanted = normalizeEmail(email);
  return demoLoginsOf(tenant).find((login) => normalizeEmail(login.email) === wanted);
}
