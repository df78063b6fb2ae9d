import { createContext, useContext, type ComponentType } from 'react';
import type { PortalConfig } from '../domain/portalConfig';

/**
 * Parts of the shell that only some tenants show: the embedded portal's sign-in notice (portal-core.md
 * §2 "Access rules"). They load at start, beside the language's texts (engine/app/main.tsx), for a
 * tenant that shows them, so they are there at the first paint as if they were in the entry; every
 * other tenant's pages do without their code (docs/testing.md "Speed and size").
 */
export interface ShellParts {
  EmbeddedSignInNotice?: ComponentType<{ timedOut: boolean }>;
}

export async function loadShellParts(tenant: PortalConfig['tenant']): Promise<ShellParts> {
  if (!tenant.embedding.isEmbedded) return {};
  const { EmbeddedSignInNotice } = await import('../core/EmbeddedSignInNotice');
  return { EmbeddedSignInNotice };
}

export const ShellPartsContext = createContext<ShellParts>({});

export const useShellParts = (): ShellParts => useContext(ShellPartsContext);
