/**
 * The `privacy` section (docs/subscribers.md "Download my data"): what the export's README tells a subscriber
 * beside the copy of the data (GDPR Art. 15(1): purposes, recipients, retention, rights, the
 * supervisory authority; Art. 13(1)(a): who the controller is and how to reach them). A tenant
 * whose subscribers sign in offers the export (engine/domain/dataExport.ts), so without the section
 * its subscribers get the data with general wording and only the customer service to ask: not an
 * error (the portal works), but `portal validate` and the studio warn until it is written.
 */
import { hasSignedInSubscribers } from '../engine/domain/dataExport';
import type { Problem } from './schemaErrors';

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function privacyWarnings(tenant: Record<string, unknown>): Problem[] {
  if (tenant.privacy !== undefined) return [];
  const features = Array.isArray(tenant.features)
    ? tenant.features.filter((f): f is string => typeof f === 'string')
    : [];
  if (!hasSignedInSubscribers({ features, login: record(tenant.login) })) return [];
  return [
    {
      pointer: '/privacy',
      at: 'key',
      message:
        'no privacy section: subscribers who download their data are told neither who is responsible for it nor whom to ask (GDPR Art. 15(1))',
      hint: 'add "privacy" with the controller\'s name and address, the contact e-mail and the supervisory authority; purposes, recipients and retention per locale (docs/subscribers.md "Download my data")',
    },
  ];
}
