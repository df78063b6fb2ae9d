import type { Response } from 'express';
import type { TenantWithDefaults } from '../../schemas/generated/tenant';
import type { ThemeTokens } from '../../engine/domain/theme';

/**
 * The request's tenant as the server holds it: the tenant file validated with its defaults applied
 * (tenant/'s ResolvedTenant), typed from the generated schema type, so every route reads every
 * setting the same typed way (tenantContext(res).tenant) and no route casts it to a hand-written
 * shape. The theme tokens come from the preset merged with the tenant's overrides.
 */
export type ServerTenant = TenantWithDefaults & { themeTokens?: ThemeTokens };

/** Per-request tenant context, set by the tenant resolver before any tenant route runs. */
export interface TenantContext {
  tenant: ServerTenant;
  /** `/` when resolved by host, `/t/<id>/` when resolved by prefix; always ends with `/`. */
  basePath: string;
  /**
   * The page shares its origin with the development pages or the outbox (`/t/<id>/` on a server
   * that serves /studio, /preview or /outbox): the tenant's contact script stays off there
   * (server/http/securityHeaders.ts PagePolicyOptions.contactScript).
   */
  besideDemoPages?: boolean;
}

export function tenantContext(res: Response): TenantContext {
  const context = res.locals.tenantContext as TenantContext | undefined;
  if (!context) throw new Error('tenant context missing: route mounted outside the tenant router');
  return context;
}

/** The request's tenant: the one way routes read it (typed, defaults applied). */
export function requestTenant(res: Response): ServerTenant {
  return tenantContext(res).tenant;
}
