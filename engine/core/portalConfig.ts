/** Reads the configuration the build inlined into the page (engine/domain/portalConfig.ts). */
import type { PortalConfig } from '../domain/portalConfig';

declare global {
  interface Window {
    __PORTAL__?: PortalConfig;
  }
}

export function readPortalConfig(): PortalConfig {
  // Every page the build or the server makes has it; without it the page cannot start anyway.
  const config = JSON.parse(document.getElementById('portal-config')!.textContent!) as PortalConfig;
  const base = document.querySelector('base')?.getAttribute('href') ?? '/';
  return { ...config, basePath: base };
}
