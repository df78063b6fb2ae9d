import { createContext, useContext } from 'react';
import type { ApiClient } from './apiClient';
import type { PortalConfig } from '../domain/portalConfig';

export interface PortalServices {
  config: PortalConfig;
  api: ApiClient;
  /**
   * `accountDeleted`: the login page says the account is gone (§4 "SSO delete"); `leftClub`: that
   * the subscriber left the loyalty club (§4 "Loyalty opt-out").
   */
  logout: (options?: { timedOut?: boolean; accountDeleted?: boolean; leftClub?: boolean }) => Promise<void>;
}

export const PortalContext = createContext<PortalServices | null>(null);

export function usePortal(): PortalServices {
  const services = useContext(PortalContext);
  if (!services) throw new Error('usePortal outside PortalContext');
  return services;
}
