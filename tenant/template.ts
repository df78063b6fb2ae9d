/**
 * The starting point of `portal new <id>`: a minimal tenant file that validates as it is, with
 * the settings an operator changes first written out.
 */
import path from 'node:path';
import { REPO_ROOT } from './sources';

const TENANT_ID = /^[a-z][a-z0-9-]{1,40}$/;

function titleOf(id: string): string {
  return id
    .split('-')
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * The `$schema` of a tenant file in `folder`: the repository's tenant schema, relative to it, so an
 * editor finds the schema for a file outside tenants/ too (PORTAL_TENANTS_DIR, `portal new --dir`).
 */
export function tenantSchemaRef(folder: string): string {
  return path
    .relative(path.resolve(folder), path.join(REPO_ROOT, 'schemas', 'tenant.schema.json'))
    .split(path.sep)
    .join('/');
}

/**
 * JSON text of `<folder>/<id>.json` (tenants/ when no folder is named); throws when `id` is not a
 * valid tenant id.
 */
export function newTenantTemplate(id: string, folder: string = path.join(REPO_ROOT, 'tenants')): string {
  if (!TENANT_ID.test(id)) {
    throw new Error(
      `"${id}" is not a valid tenant id. Use 2 to 41 lower-case letters, digits and hyphens, starting with a letter, for example "city-herald".`,
    );
  }
  const tenant = {
    $schema: tenantSchemaRef(folder),
    id,
    name: titleOf(id),
    hosts: [`${id}.localhost`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    logoTargetUrl: 'https://www.example.com',
    termsOfServiceUrl: 'https://www.example.com/agb',
    privacyPolicyUrl: 'https://www.example.com/datenschutz',
    siteNoticeUrl: 'https://www.example.com/impressum',
    contact: {
      email: 'service@example.com',
      phone: '+49 30 1234567',
      fallbackEmail: 'service@example.com',
      fallbackPhone: '+49 30 1234567',
    },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    theme: { preset: 'classic' },
    features: ['payment-history', 'issue-download', 'invoice-request', 'invoice-download', 'faq'],
    publicationBlacklists: {},
    // One question to start from, so the FAQ page the features switch on is not empty.
    faq: {
      categories: [{ id: 'rechnung', title: { 'de-DE': 'Rechnung', 'en-GB': 'Invoices' } }],
      entries: [
        {
          id: 'rechnung-finden',
          category: 'rechnung',
          public: true,
          title: { 'de-DE': 'Wo finde ich meine Rechnungen?', 'en-GB': 'Where do I find my invoices?' },
          content: {
            'de-DE': '<p>Auf der Seite Ihres Abonnements, unter „Rechnungen“, als PDF zum Herunterladen.</p>',
            'en-GB': '<p>On the page of your subscription, under “Invoices”, as PDF files to download.</p>',
          },
        },
      ],
    },
    texts: {},
  };
  return `${JSON.stringify(tenant, null, 2)}\n`;
}
