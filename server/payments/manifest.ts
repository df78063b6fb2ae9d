/**
 * The payment providers' pages (docs/architecture.md "Payments"). The providers are built once
 * (SharedServices.providers) because their webhooks (ApiParts.paymentCallbacks) and the
 * reconciliation job use the same instances; server/apiRoutes.ts wires those two.
 */
import type { FeatureManifest } from '../featureManifest';
import { paymentsPersonalData } from './personalData';

export const paymentsManifest: FeatureManifest = {
  id: 'payments',
  routers: (_deps, { providers, settle }) =>
    [...providers.values()].map((provider) => ({ router: provider.routes(settle) })),
  personalData: paymentsPersonalData,
  // Recorded by the refund job (paymentRefunds.ts), which server/main.ts runs beside the reconciliation.
  events: ['payment.refunded'],
};
