/**
 * The tenant file's `webhooks` setting (issue 8 "Account events": "Bad webhook URLs fail
 * validation"), pinned in the validator's wording: https only (plain http for a receiver on this
 * machine), no credentials in the URL, a secret from the environment (a literal one for local
 * receivers only), known event types, each URL once.
 */
import { describe, expect, it } from 'vitest';
import { formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../tenant';
import type { WebhookEndpoint } from '../../schemas/generated/tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = { themePresets: { classic: makeThemePreset() } };

function validate(webhooks: unknown[]) {
  return validateTenantSource(
    FILE,
    JSON.stringify(makeTenant({ webhooks: webhooks as WebhookEndpoint[] }), null, 2),
    ctx,
  );
}

const problems = (webhooks: unknown[]) =>
  validate(webhooks).issues.map((issue) => `${issue.pointer} ${issue.message}`);

describe('tenant webhooks', () => {
  it('accepts an https endpoint with a secret variable, and a local http receiver with a literal secret', () => {
    const { issues, tenant } = validate([
      {
        url: 'https://crm.acme.example/portal-events',
        secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME',
        events: ['subscription.linked', 'invoice.requested'],
      },
      { url: 'http://127.0.0.1:4466/events', secret: 'demo-secret-of-16+chars' },
      { url: 'http://localhost/events', secretEnv: 'LOCAL_SECRET' },
    ]);
    expect(issues).toEqual([]);
    expect(tenant?.webhooks).toHaveLength(3);
  });

  it('leaves a tenant without webhooks with an empty list', () => {
    const { tenant } = validateTenantSource(FILE, JSON.stringify(makeTenant()), ctx);
    expect(tenant?.webhooks).toEqual([]);
  });

  it('refuses plain http to another machine and suggests the https URL', () => {
    const { issues } = validate([
      { url: 'http://crm.acme.example/hook', secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' },
    ]);
    expect(issues.map(formatIssueWithHint)).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.json:\d+:\d+ \/webhooks\/0\/url webhook URL "http:\/\/crm\.acme\.example\/hook" must use https; plain http is allowed only for a receiver on this machine \(localhost, 127\.0\.0\.1 or \[::1\]\)\n {4}write "https:\/\/crm\.acme\.example\/hook"$/,
      ),
    ]);
  });

  it("refuses what is not a URL in the validator's usual words", () => {
    expect(problems([{ url: 'crm.acme.example/hook', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url "crm.acme.example/hook" does not look like a valid URL. Make sure it has a protocol; for example https://example.com',
    ]);
  });

  it('refuses other protocols, and credentials in the URL', () => {
    expect(problems([{ url: 'ftp://files.acme.example/x', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url "ftp://files.acme.example/x" does not look like a valid URL. Make sure it has a protocol; for example https://example.com',
    ]);
    expect(problems([{ url: 'https://user:pw@crm.acme.example/hook', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url webhook URL "https://user:pw@crm.acme.example/hook" carries a user name or password, which would be committed with the tenant file',
    ]);
  });

  it('needs exactly one secret, and a literal one only for a local receiver', () => {
    const [missing] = validate([{ url: 'https://crm.acme.example/hook' }]).issues;
    expect(`${missing.pointer} ${missing.message}`).toBe(
      '/webhooks/0 webhook endpoint has no signing secret',
    );
    expect(missing.hint).toBe(
      'add "secretEnv": "PORTAL_WEBHOOK_SECRET_ACME" and set that environment variable on the server',
    );
    expect(
      problems([{ url: 'https://crm.acme.example/hook', secretEnv: 'S', secret: 'a-secret-of-16-chars' }]),
    ).toEqual(['/webhooks/0/secret webhook endpoint gives both secretEnv and secret']);
    expect(problems([{ url: 'https://crm.acme.example/hook', secret: 'a-secret-of-16-chars' }])).toEqual([
      '/webhooks/0/secret a literal webhook secret is allowed only for a receiver on this machine: the tenant file is committed, so the secret would not be secret',
    ]);
  });

  it('names an unknown event type and suggests the closest one', () => {
    const [issue] = validate([
      { url: 'https://crm.acme.example/hook', secretEnv: 'S', events: ['invoice.request'] },
    ]).issues;
    expect(`${issue.pointer} ${issue.message}`).toBe(
      '/webhooks/0/events/0 unknown event type "invoice.request". Did you mean "invoice.requested"?',
    );
    expect(issue.hint).toContain('account.created');
  });

  it('refuses the same URL twice and a secret variable name that is not one', () => {
    expect(
      problems([
        { url: 'https://crm.acme.example/hook', secretEnv: 'S' },
        { url: 'https://crm.acme.example/hook', secretEnv: 'lower-case' },
      ]),
    ).toEqual([
      '/webhooks/1/url duplicate webhook URL "https://crm.acme.example/hook" (also at /webhooks/0/url)',
      '/webhooks/1/secretEnv "lower-case" is not in the expected format',
    ]);
  });
});
