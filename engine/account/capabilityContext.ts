import { useMemo } from 'react';
import { usePortal } from '../../core/PortalContext';
import type { CapabilityContext, CapabilityTenant } from '../../domain/capabilities';

/**
 * The capability context of the signed-in tenant: the inlined tenant configuration (every setting
 * of schemas/tenant.schema.json with defaults applied) as engine/domain/capabilities.ts reads it.
 */
export function useCapabilityContext(): CapabilityContext {
  const { config } = usePortal();
  return useMemo(() => ({ tenant: config.tenant as unknown as CapabilityTenant }), [config.tenant]);
}

/** Tenant settings the screens read beyond the shell's (schemas/tenant.schema.json). */
export interface ScreenSettings {
  download?: { openInNewTab?: boolean };
  shippingStatus?: { providers?: Array<{ code: string; name?: string; trackingUrlTemplate?: string }> };
  subscriptionModel?: { showSubscriptionTypeBadge?: boolean; typeLabels?: Record<string, { 'de-DE'?: string; 'en-GB'?: string } | undefined> };
  embedding: { hideBackToOverview?: boolean };
  buttons?: { hiddenActions?: string[] };
  paymentHistory?: { showExternalDocumentNumber?: boolean };
  orderAttributes?: { attributes?: Array<{ type: string; label: { 'de-DE'?: string; 'en-GB'?: string }; value?: string; editable?: boolean; creatable?: boolean; inputType?: string }> };
  externalSubscriptionLink?: { label?: { 'de-DE'?: string; 'en-GB'?: string } };
  cancellation?: { revocationContactActivity?: string };
  hasMultipleAvsClients?: boolean;
  linkSubscription?: { askGiftQuestion?: boolean; preferredRole?: 'WE' | 'AG'; allowBpNumber?: boolean };
  orderNumberExampleImageUrl?: string;
}

export function useScreenSettings(): ScreenSettings {
  const { config } = usePortal();
  return config.tenant as unknown as ScreenSettings;
}
