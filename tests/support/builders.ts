/**
 * Small builders for test fixtures (CONVENTIONS.md rule 9): each returns a valid object that a
 * test changes only where its story needs to, e.g. `makeTenant({ features: ['faq'] })`.
 */
import type { Tenant } from '../../schemas/generated/tenant';
import type { ThemePreset } from '../../schemas/generated/theme';
import { schemaValidator } from '../../tenant/schemaErrors';
import type { ServerTenant } from '../../server/tenancy/tenantContext';

/** A valid, minimal tenant file (id "acme", so it belongs in tenants/acme.json). */
export function makeTenant(overrides: Partial<Tenant> = {}): Tenant {
  return {
    $schema: '../schemas/tenant.schema.json',
    id: 'acme',
    name: 'Acme Zeitung',
    hosts: ['acme.localhost'],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    logoTargetUrl: 'https://www.acme.example/',
    contact: {
      email: 'service@acme.example',
      phone: '+49 30 1234567',
      fallbackEmail: 'service@acme.example',
      fallbackPhone: '+49 30 1234567',
    },
    // What the data export tells subscribers (docs/subscribers.md "Download my data"); without it validate
    // warns.
    privacy: {
      controller: { name: 'Acme Zeitung GmbH', addressLines: ['Hauptstraße 1', '10115 Berlin'] },
      contactEmail: 'datenschutz@acme.example',
      supervisoryAuthority: { name: 'Berliner Beauftragte für Datenschutz und Informationsfreiheit' },
    },
    login: { magicLink: true },
    theme: { preset: 'classic' },
    features: ['faq', 'issue-download', 'invoice-download'],
    // The seller its invoices name (docs/invoices.md); without it validate warns.
    invoice: {
      publisher: {
        name: 'Acme Zeitung GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin'],
        street: 'Hauptstraße 1',
        postalCode: '10115',
        city: 'Berlin',
        countryCode: 'DE',
        vatId: 'DE811234567',
      },
    },
    // A FAQ switched on without entries is warned about (tenant/unusedSettingsWarnings.ts).
    faq: {
      entries: [
        {
          id: 'delivery',
          title: { 'de-DE': 'Wann kommt die Zeitung?', 'en-GB': 'When does the paper arrive?' },
          content: { 'de-DE': '<p>Bis 6 Uhr.</p>', 'en-GB': '<p>By 6 am.</p>' },
        },
      ],
    },
    ...overrides,
  };
}

/** A valid theme preset with plain, high-contrast colours. */
export function makeThemePreset(overrides: Partial<ThemePreset> = {}): ThemePreset {
  return {
    name: 'Test preset',
    colors: {
      primary: '#1b3a6b',
      onPrimary: '#ffffff',
      background: '#ffffff',
      surface: '#ffffff',
      text: '#1c1c1c',
      mutedText: '#595959',
      border: '#d8d3c4',
      link: '#1b3a6b',
      success: '#2e6b30',
      warning: '#8a5300',
      error: '#b02a1f',
      info: '#1d5a87',
    },
    fonts: { body: 'Georgia, serif', heading: 'Georgia, serif' },
    radii: { card: '2px', button: '2px' },
    spacing: { unit: '8px' },
    ...overrides,
  };
}

/**
 * The tenant a server test hands to createApp: the test's settings with the tenant schema's
 * defaults applied, which is what the validator hands the real server (ResolvedTenant). Fixtures
 * may leave out settings a tenant file requires (contact, theme, …); only what the story needs is
 * written down, and the server sees the same defaults it sees in production.
 */
export function makeServerTenant(settings: { id: string } & Record<string, unknown>): ServerTenant {
  // A test tenant pays through the sandbox unless its story names another provider: only a demo
  // tenant gets it without naming it (tenant/paymentProviderRules.ts paymentProviderOf).
  const tenant = structuredClone({ payments: { provider: 'sandbox' }, ...settings });
  // The schema's validator fills every default in place; a fixture's missing required settings
  // are not the test's story, so its errors are not looked at here.
  schemaValidator('tenant')(tenant);
  return tenant as unknown as ServerTenant;
}

/** A tenant for the sign-in tests: English, magic link and password on, 30 minutes idle time. */
export function makeSignInTenant(
  id: string,
  login: Partial<ServerTenant['login']> = {},
  features: string[] = [],
): ServerTenant {
  return makeServerTenant({
    id,
    name: `Tenant ${id}`,
    hosts: [],
    defaultLocale: 'en-GB',
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: true, sessionIdleMinutes: 30, ...login },
  });
}
