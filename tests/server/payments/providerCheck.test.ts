/**
 * `portal payments check <tenant>` (docs/architecture.md "Payments", Going live step 6): one harmless read
 * with the tenant's credentials at its provider — through the official SDKs, here at the local stand-ins —
 * and the webhook URL to enter; a wrong or missing key is a failure with the reason.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkPaymentProvider } from '../../../server/payments/providerCheck';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { makeServerTenant } from '../../support/builders';
import {
  startMollieStandin,
  startStripeStandin,
  type MollieStandin,
  type StripeStandin,
} from '../../support/paymentStandins';

let stripe: StripeStandin;
let mollie: MollieStandin;

const tenant = (payments: ServerTenant['payments']) =>
  makeServerTenant({ id: 'acme', hosts: ['abo.acme.example'], payments });

beforeAll(async () => {
  stripe = await startStripeStandin();
  mollie = await startMollieStandin();
  vi.stubEnv('PORTAL_STRIPE_API_URL', stripe.url);
  vi.stubEnv('PORTAL_MOLLIE_API_URL', mollie.apiEndpoint);
  vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await stripe?.close();
  await mollie?.close();
});

describe('portal payments check', () => {
  it('says the sandbox moves no money', async () => {
    const result = await checkPaymentProvider(tenant({ provider: 'sandbox' }), {});
    expect(result).toEqual({ ok: true, lines: [expect.stringContaining('uses the sandbox')] });
  });

  it('fails for a publisher that names no provider, and gives a demo tenant the sandbox', async () => {
    const none = tenant({});
    expect(await checkPaymentProvider(none, {})).toEqual({
      ok: false,
      lines: [expect.stringContaining('names no payment provider')],
    });
    expect(await checkPaymentProvider({ ...none, demo: true }, {})).toMatchObject({ ok: true });
  });

  it('reads the Stripe balance with the key and names the webhook endpoint and its events', async () => {
    const stripeTenant = tenant({ provider: 'stripe', stripe: { secretKeyEnv: 'K', webhookSecretEnv: 'W' } });
    const result = await checkPaymentProvider(stripeTenant, { K: 'sk_test_check1', W: 'whsec_abc' });
    expect(result.ok).toBe(true);
    expect(result.lines[0]).toMatch(/^Stripe accepted the test key of acme/);
    expect(result.lines.join('\n')).toContain(
      'https://abo.acme.example/api/payments/stripe/webhook with the events checkout.session.completed',
    );
    expect(stripe.requests).toContainEqual({ method: 'GET', path: '/v1/balance' });

    const requestsBefore = stripe.requests.length;
    const missing = await checkPaymentProvider(stripeTenant, { W: 'whsec_abc' });
    expect(missing).toEqual({
      ok: false,
      lines: [expect.stringMatching(/environment variable K is not set.* stripe was not asked\.$/)],
    });
    // This machine's setting, not the provider's refusal: Stripe is not asked.
    expect(missing.lines[0]).not.toMatch(/refused or could not be reached/);
    expect(stripe.requests).toHaveLength(requestsBefore);
    // A provider out of reach is a failure with the SDK's reason.
    vi.stubEnv('PORTAL_STRIPE_API_URL', 'http://127.0.0.1:9');
    const unreachable = await checkPaymentProvider(stripeTenant, {
      K: 'sk_test_unreachable',
      W: 'whsec_abc',
    });
    vi.stubEnv('PORTAL_STRIPE_API_URL', stripe.url);
    expect(unreachable.ok).toBe(false);
    expect(unreachable.lines.at(-1)).toMatch(/^stripe refused or could not be reached: /);
  });

  it('lists the methods Mollie has enabled with the key', async () => {
    const result = await checkPaymentProvider(tenant({ provider: 'mollie', mollie: { apiKeyEnv: 'M' } }), {
      M: 'test_check1',
    });
    expect(result.ok).toBe(true);
    expect(result.lines[0]).toMatch(
      /^Mollie accepted the test key of acme \(methods enabled: .*creditcard.*paypal/,
    );
    const wrong = await checkPaymentProvider(tenant({ provider: 'mollie', mollie: { apiKeyEnv: 'M' } }), {
      M: 'pk_nope',
    });
    expect(wrong.ok).toBe(false);
    expect(wrong.lines.at(-1)).toContain("does not hold a key of the provider's form");
  });
});
