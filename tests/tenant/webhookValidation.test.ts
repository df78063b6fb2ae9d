/**
 * The tenant file's `webhooks` setting (docs/going-live.md "The tenant setting": bad webhook URLs fail
 * validation), pinned in the validator's wording: https only, to a public address only (docs/going-live.md
 * "Outbound requests": every notation of this machine or a private network refused, as the
 * penetration test wrote them), no credentials in the URL, a secret from the environment (never a
 * literal one), known event types, each URL once; a variable's value warned about
 * where validation runs, and previousSecretEnv for a rotation.
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
  it('accepts https endpoints with a secret variable, by public name or public address', () => {
    const { issues, tenant } = validate([
      {
        url: 'https://crm.acme.example/portal-events',
        secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME',
        events: ['subscription.linked', 'invoice.requested'],
      },
      { url: 'https://93.184.216.34:8443/events', secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' },
      { url: 'https://[2606:4700::1111]/events', secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' },
      { url: 'https://localhost.acme.example/events', secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' },
    ]);
    expect(issues).toEqual([]);
    expect(tenant?.webhooks).toHaveLength(4);
  });

  it('leaves a tenant without webhooks with an empty list', () => {
    const { tenant } = validateTenantSource(FILE, JSON.stringify(makeTenant()), ctx);
    expect(tenant?.webhooks).toEqual([]);
  });

  it('refuses plain http and suggests the https URL', () => {
    const { issues } = validate([
      { url: 'http://crm.acme.example/hook', secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' },
    ]);
    expect(issues.map(formatIssueWithHint)).toEqual([
      expect.stringMatching(
        /^tenants\/acme\.json:\d+:\d+ \/webhooks\/0\/url webhook URL "http:\/\/crm\.acme\.example\/hook" must use https\n {4}write "https:\/\/crm\.acme\.example\/hook"$/,
      ),
    ]);
  });

  it('refuses an address on this machine, its network or the cloud metadata service, in every notation, with file:line:col, pointer and hint', () => {
    const loopback = '127.0.0.1 is a loopback address (127.0.0.0/8)';
    const mapped =
      '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) of 127.0.0.1, a loopback address (127.0.0.0/8)';
    const cases: Array<[url: string, why: string]> = [
      ['https://127.0.0.2:5371/hook', '127.0.0.2 is a loopback address (127.0.0.0/8)'],
      ['https://0.0.0.0:5371/hook', '0.0.0.0 is an unspecified ("this network") address (0.0.0.0/8)'],
      ['https://127.1:5371/hook', loopback],
      ['https://0x7f.1/hook', loopback],
      ['https://2130706433/hook', loopback],
      ['https://0177.0.0.1/hook', loopback],
      ['https://[::1]/hook', '::1 is the loopback address (::1/128)'],
      ['https://[::]/hook', ':: is the unspecified address (::/128)'],
      ['https://[::ffff:127.0.0.1]:5371/hook', mapped],
      ['https://[::ffff:7f00:1]/hook', mapped],
      [
        'https://[::127.0.0.1]/hook',
        '::7f00:1 is an IPv4-compatible address of 127.0.0.1 (::/96, deprecated)',
      ],
      [
        'https://[64:ff9b::10.0.0.1]/hook',
        '64:ff9b::a00:1 is a NAT64 address (64:ff9b::/96) of 10.0.0.1, a private address (10.0.0.0/8)',
      ],
      [
        'https://[2002:c0a8:101::1]/hook',
        '2002:c0a8:101::1 is a 6to4 address (2002::/16) of 192.168.1.1, a private address (192.168.0.0/16)',
      ],
      ['https://10.0.0.1/hook', '10.0.0.1 is a private address (10.0.0.0/8)'],
      ['https://172.16.5.4/hook', '172.16.5.4 is a private address (172.16.0.0/12)'],
      ['https://192.168.0.10/hook', '192.168.0.10 is a private address (192.168.0.0/16)'],
      ['https://100.64.0.1/hook', '100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10)'],
      [
        'https://169.254.169.254/latest/meta-data',
        '169.254.169.254 is a link-local address, where cloud metadata services answer (169.254.0.0/16)',
      ],
      ['https://[fd00::1]/hook', 'fd00::1 is a unique local (private) address (fc00::/7)'],
      ['https://[fe80::1]/hook', 'fe80::1 is a link-local address (fe80::/10)'],
      ['https://224.0.0.1/hook', '224.0.0.1 is a multicast address (224.0.0.0/4)'],
      ['https://255.255.255.255/hook', '255.255.255.255 is the broadcast address (255.255.255.255/32)'],
      ['https://198.18.0.1/hook', '198.18.0.1 is a benchmarking address (198.18.0.0/15)'],
      ['https://localhost/hook', 'localhost is a name of this machine (localhost)'],
      ['https://LocalHost./hook', 'localhost is a name of this machine (localhost)'],
      ['https://crm.localhost:8443/hook', 'crm.localhost is a name of this machine (localhost)'],
    ];
    for (const [url, why] of cases) {
      const { issues } = validate([{ url, secretEnv: 'PORTAL_WEBHOOK_SECRET_ACME' }]);
      expect(issues.map(formatIssueWithHint), url).toEqual([
        `${FILE}:${issues[0]?.line}:${issues[0]?.column} /webhooks/0/url webhook URL "${url}" does not go to a public address: ${why}\n    name the receiver by its public host name, for example "https://crm.example.com/portal-events": the server sends nothing to loopback, private, link-local or other non-public addresses`,
      ]);
      expect(issues[0].line, url).toBeGreaterThan(1);
    }
    // Plain http to this machine, as the old rules allowed: both problems at once, and no hint to
    // write the https form of an address the second refuses anyway.
    expect(problems([{ url: 'http://127.0.0.1:4466/events', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url webhook URL "http://127.0.0.1:4466/events" must use https',
      '/webhooks/0/url webhook URL "http://127.0.0.1:4466/events" does not go to a public address: 127.0.0.1 is a loopback address (127.0.0.0/8)',
    ]);
    const { issues } = validate([{ url: 'http://127.0.0.1:4466/events', secretEnv: 'S' }]);
    expect(issues.map((issue) => issue.hint).join('\n')).not.toContain('write "https://127.0.0.1');
  });

  it("refuses what is not a URL in the validator's usual words", () => {
    expect(problems([{ url: 'crm.acme.example/hook', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url "crm.acme.example/hook" does not look like a valid URL. Make sure it has a protocol; for example https://example.com',
    ]);
  });

  it('refuses other protocols, and credentials in the URL', () => {
    expect(problems([{ url: 'ftp://files.acme.example/x', secretEnv: 'S' }])).toEqual([
      // It has a protocol: the wrong one, which the setting's description names.
      '/webhooks/0/url "ftp://files.acme.example/x" is not a valid URL',
    ]);
    expect(problems([{ url: 'https://user:pw@crm.acme.example/hook', secretEnv: 'S' }])).toEqual([
      '/webhooks/0/url webhook URL "https://user:pw@crm.acme.example/hook" carries a user name or password, which would be committed with the tenant file',
    ]);
  });

  it('needs exactly one secret, from an environment variable', () => {
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
      '/webhooks/0/secret a literal webhook secret is not accepted: the tenant file is committed, so the secret would not be secret',
    ]);
    // Not even for a receiver on this machine, as before: there is none any more.
    expect(problems([{ url: 'https://crm.acme.example/hook', secret: 'not-even-whsec' }])).toEqual([
      '/webhooks/0/secret a literal webhook secret is not accepted: the tenant file is committed, so the secret would not be secret',
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
      problems([{ url: 'https://crm.acme.example/hook', secret: SECRET, previousSecretEnv: 'OLD_SECRET' }]),
    ).toEqual([
      '/webhooks/0/secret a literal webhook secret is not accepted: the tenant file is committed, so the secret would not be secret',
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
