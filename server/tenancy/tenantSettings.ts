import type { Tenant } from '../../schemas/generated/tenant';
import type { ServerTenant } from './tenantContext';
import { tenantContext } from './tenantContext';
import type { Response } from 'express';

/**
 * The server loads validated tenant files (cli/tenant ResolvedTenant); ServerTenant names only what
 * every route needs. The public pages (FAQ, contact, issue calendar, external pages) read their own
 * sections of the tenant file through this type; each section may be missing.
 */
export type PublicPagesTenant = ServerTenant &
  Partial<Pick<Tenant, 'faq' | 'contactForm' | 'issueCalendar' | 'externalNavigationLinks' | 'contact' | 'salutations'>>;

export function publicPagesTenant(res: Response): PublicPagesTenant {
  return tenantContext(res).tenant as PublicPagesTenant;
}
