/**
 * The tenant file's `webhooks` setting (issue 8 "Account events": "Bad webhook URLs fail
 * validation"), pinned in the validator's wording: https only (plain http for a receiver on this
 * machine), no credentials in the URL, a secret from the environment (a literal one for local
 * receivers only), known event types, each URL once. Issue 25: secrets in the Standard Webhooks
 * form (a literal one refused otherwise; a variable's value warned about where validation runs),
 * and previousSecretEnv for a rotation.
 */
import { describe, expect, it } from 'vitest';
import { formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../tenant';
import type { WebhookEndpoint } from '../../schemas/generated/tenant';
import { generateWebhookSecret } from '../../tenant/webhookSecret';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const SECRET = generateWebhookSecret();
const ctx: ValidationContext = { themePresets: { classic: makeThemePreset() }, env: {} };

function validate(webhooks: unknown[], env: Record<string, string> = {}) {
  return validateTenantSource(
    FILE,
    JSON.stringify(makeTenant({ webhooks: webhooks as WebhookEndpoint[] }), null, 2),
    { ...ctx, env },
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
      { url: 'http://127.0.0.1:4466/events', secret: SECRET },
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
    expect(problems([{ url: 'https://crm.acme.example/hook', secretEnv: 'S', secret: SECRET }])).toEqual([
      '/webhooks/0/secret webhook endpoint gives both secretEnv and secret',
    ]);
    expect(problems([{ url: 'https://crm.acme.example/hook', secret: SECRET }])).toEqual([
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

  it('refuses a literal secret that is not a Standard Webhooks secret, and says how to make one', () => {
    const [issue] = validate([
      { url: 'http://127.0.0.1:4466/events', secret: 'demo-secret-of-16+chars' },
    ]).issues;
    expect(`${issue.pointer} ${issue.message}`).toBe(
      '/webhooks/0/secret webhook secret is not a Standard Webhooks secret: it does not start with whsec_ (a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes)',
    );
    expect(issue.hint).toBe('make one with `portal webhooks secret`');
    expect(problems([{ url: 'http://127.0.0.1:4466/events', secret: 'whsec_c2hvcnQ=' }])).toEqual([
      '/webhooks/0/secret webhook secret is not a Standard Webhooks secret: it decodes to 5 bytes (a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes)',
    ]);
  });

  it('takes previousSecretEnv beside secretEnv for a rotation, and refuses it alone or naming the same variable', () => {
    const rotating = {
      url: 'https://crm.acme.example/hook',
      secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME_2027',
      previousSecretEnv: 'PORTAL_WEBHOOK_SECRET_ACME',
    };
    const env = {
      PORTAL_WEBHOOK_SECRET_ACME_2027: SECRET,
      PORTAL_WEBHOOK_SECRET_ACME: generateWebhookSecret(),
    };
    const result = validate([rotating], env);
    expect(result.issues).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.tenant?.webhooks[0]).toEqual(rotating);
    expect(
      problems([{ url: 'http://127.0.0.1:4466/events', secret: SECRET, previousSecretEnv: 'OLD_SECRET' }]),
    ).toEqual([
      '/webhooks/0/previousSecretEnv previousSecretEnv keeps the old secret of secretEnv during a rotation, and this endpoint has no secretEnv',
    ]);
    expect(problems([{ ...rotating, previousSecretEnv: rotating.secretEnv }])).toEqual([
      '/webhooks/0/previousSecretEnv previousSecretEnv names the same variable as secretEnv (PORTAL_WEBHOOK_SECRET_ACME_2027)',
    ]);
  });

  it('warns (without failing) when a named variable is not set where it runs, or holds no whsec_ secret', () => {
    const endpoints = [
      {
        url: 'https://crm.acme.example/hook',
        secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME',
        previousSecretEnv: 'OLD_ONE',
      },
      { url: 'https://erp.acme.example/hook', secretEnv: 'PORTAL_WEBHOOK_SECRET_ERP' },
    ];
    const { issues, warnings, tenant } = validate(endpoints, {
      PORTAL_WEBHOOK_SECRET_ACME: 'hunter2-but-longer-than-16',
      PORTAL_WEBHOOK_SECRET_ERP: SECRET,
    });
    expect(issues).toEqual([]);
    expect(tenant?.webhooks).toHaveLength(2);
    expect(warnings.map(formatIssueWithHint)).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.json:\d+:\d+ \/webhooks\/0\/secretEnv warning: environment variable PORTAL_WEBHOOK_SECRET_ACME does not hold a Standard Webhooks secret: it does not start with whsec_ \(a Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes\); a server with this value holds this endpoint's deliveries\n {4}make a secret with `portal webhooks secret`, give it to the receiver and set PORTAL_WEBHOOK_SECRET_ACME to it$/,
      ),
      expect.stringMatching(
        /^tenants\/acme\.json:\d+:\d+ \/webhooks\/0\/previousSecretEnv warning: environment variable OLD_ONE is not set here: a server without it holds this endpoint's deliveries rather than send them unsigned\n {4}set OLD_ONE to the secret being replaced where the server runs, or remove previousSecretEnv once the rotation is over$/,
      ),
    ]);
    // The value itself never appears.
    expect(JSON.stringify(warnings)).not.toContain('hunter2');
    const [unset] = validate([endpoints[1]]).warnings;
    expect(`${unset.pointer} ${unset.message}`).toBe(
      "/webhooks/0/secretEnv environment variable PORTAL_WEBHOOK_SECRET_ERP is not set here: a server without it holds this endpoint's deliveries rather than send them unsigned",
    );
    expect(unset.hint).toBe(
      'make a secret with `portal webhooks secret` and set PORTAL_WEBHOOK_SECRET_ERP to it where the server runs',
    );
  });
});
