import { useMemo } from 'react';
import { usePortal } from '../core/PortalContext';
import type { PortalTenant } from '../domain/portalConfig';
import type { CapabilityContext } from '../domain/capabilityRule';

/**
 * The capability context of the portal's tenant (portal-core.md §6): the inlined tenant
 * configuration, typed from the generated tenant schema with its defaults applied, is what
 * engine/domain/capabilities.ts reads — the same rules the server refuses by.
 */
export function useCapabilityContext(): CapabilityContext {
  const { config } = usePortal();
  return useMemo(() => ({ tenant: config.tenant }), [config.tenant]);
}

/**
 * The tenant settings screens read (buttons, download, subscription model, order attributes, …),
 * typed from schemas/generated/tenant.ts: a setting the schema does not have does not compile.
 */
export function useTenantSettings(): PortalTenant {
  return usePortal().config.tenant;
}
