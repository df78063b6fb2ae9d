import type { FeatureDefinition } from './types';
import { loginFeature } from './login';
import { ordersFeature } from './orders';
import { membershipsFeature } from './memberships';
import { subscriptionFeature } from './subscription';
import { linkSubscriptionFeature } from './link-subscription';
import { bundleGroupFeature } from './bundle-group';
import { businessPartnersFeature } from './business-partners';
import { faqFeature } from './faq';
import { contactFeature } from './contact';
import { issueCalendarFeature } from './issue-calendar';
import { externalPageFeature } from './external-page';

/**
 * The only list of features (CONVENTIONS.md rule 2). The shell, the build (which chunks a tenant
 * needs), the validator (which text keys exist) and the preview all read it.
 */
export const FEATURES: readonly FeatureDefinition[] = assertUniqueIds([
  loginFeature,
  ordersFeature,
  membershipsFeature,
  subscriptionFeature,
  linkSubscriptionFeature,
  bundleGroupFeature,
  businessPartnersFeature,
  faqFeature,
  contactFeature,
  issueCalendarFeature,
  externalPageFeature,
]);

function assertUniqueIds(features: FeatureDefinition[]): FeatureDefinition[] {
  const seen = new Set<string>();
  for (const feature of features) {
    if (seen.has(feature.id)) throw new Error(`Duplicate feature id "${feature.id}" in engine/features/index.ts`);
    seen.add(feature.id);
  }
  return features;
}

/** A feature is enabled for a tenant when it has no flag or its flag is in the tenant's features. */
export function isFeatureEnabled(feature: FeatureDefinition, tenantFeatures: readonly string[]): boolean {
  return feature.flag === undefined || tenantFeatures.includes(feature.flag);
}
