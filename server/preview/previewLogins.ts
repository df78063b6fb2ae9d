import { demoLoginsOf, type DemoLoginSummary } from '../seed/demoLogins';
import { isDemoTenant } from '../seed/seedDemo';
import type { ServerTenant } from '../tenancy/tenantContext';

/**
 * The logins the QA preview offers and signs in for a tenant: a demo tenant's seeded demo logins.
 * A tenant that is no demo has none: whoever it holds came from the publisher's order system (an
 * import, a registration), even at a demo address, and the studio signs none of them in either
 * (docs/operators.md "The preview page"). `portal preview` is the exception: its own database
 * seeds every tenant, so a new publisher's signed-in screens can be checked before its data arrives.
 */
export function previewLoginsOf(tenant: ServerTenant, demoDataInEveryTenant: boolean): DemoLoginSummary[] {
  return isDemoTenant(tenant) || demoDataInEveryTenant ? demoLoginsOf(tenant) : [];
}
