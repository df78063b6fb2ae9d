/**
 * The tenant file's `payments` setting (docs/architecture.md "Payments", Going live step 6): a hosted
 * provider needs its settings, names environment variables rather than secrets, and `portal validate` warns
 * where a variable is not set or holds no key of the provider's form.
 */
import { describe, expect, it } from 'vitest';
import { formatIssueWithHint, validateTenantSource, type ValidationContext } from '../../tenant';
import type { PaymentsConfig } from '../../schemas/generated/tenant';
import { makeTenant, makeThemePreset } from '../support/builders';
import { paymentProviderOf } from '../../tenant/paymentProviderRules';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = { themePresets: { classic: makeThemePreset() }, env: {} };

function validate(payments: unknown, env: Record<string, string> = {}) {
  return validateTenantSource(
    FILE,
    JSON.stringify(makeTenant({ payments: payments as PaymentsConfig }), null, 2),
    { ...ctx, env },
  );
}

const STRIPE = {
  provider: 'stripe',
  stripe: { secretKeyEnv: 'PORTAL_STRIPE_KEY_ACME', webhookSecretEnv: 'PORTAL_STRIPE_WEBHOOK_SECRET_ACME' },
};

describe('tenant payments', () => {
  it('gives the sandbox by default to a demo tenant only: a publisher without a provider takes no payment', () => {
    const { issues, tenant } = validate(undefined);
    expect(issues).toEqual([]);
    expect(tenant?.payments?.provider).toBeUndefined();
    expect(paymentProviderOf(tenant!)).toBeUndefined();
    expect(paymentProviderOf({ ...tenant!, demo: true })).toBe('sandbox');
    expect(paymentProviderOf({ ...tenant!, payments: { provider: 'sandbox' } })).toBe('sandbox');
    expect(paymentProviderOf({ demo: true, payments: { provider: 'mollie' } })).toBe('mollie');
  });

  it('accepts Stripe and Mollie with their variables set to keys of their form', () => {
    const stripe = validate(STRIPE, {
      PORTAL_STRIPE_KEY_ACME: 'sk_live_abc123',
      PORTAL_STRIPE_WEBHOOK_SECRET_ACME: 'whsec_abc123',
    });
    expect([...stripe.issues, ...stripe.warnings]).toEqual([]);
    const mollie = validate(
      { provider: 'mollie', mollie: { apiKeyEnv: 'PORTAL_MOLLIE_KEY_ACME' } },
      { PORTAL_MOLLIE_KEY_ACME: 'live_abc123' },
    );
    expect([...mollie.issues, ...mollie.warnings]).toEqual([]);
  });

  it('refuses a hosted provider without its settings, naming what to add', () => {
    const { issues } = validate({ provider: 'mollie' });
    expect(issues.map(formatIssueWithHint)).toEqual([
      expect.stringContaining(
        '/payments/provider payments.provider is mollie, and payments.mollie does not say where its credentials are\n    add "mollie": { "apiKeyEnv": "PORTAL_MOLLIE_KEY_ACME" }',
      ),
    ]);
  });

  it('refuses a secret written into the file and an unknown provider', () => {
    expect(
      validate({ provider: 'stripe', stripe: { secretKey: 'sk_live_abc' } }).issues.length,
    ).toBeGreaterThan(0);
    expect(validate({ provider: 'adyen' }).issues.length).toBeGreaterThan(0);
  });

  it('warns where a variable is not set or holds no key of the provider’s form', () => {
    const { issues, warnings } = validate(STRIPE, { PORTAL_STRIPE_KEY_ACME: 'pk_live_publishable' });
    expect(issues).toEqual([]);
    expect(warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      "/payments/stripe/secretKeyEnv environment variable PORTAL_STRIPE_KEY_ACME does not hold the Stripe account's secret key (sk_live_…, sk_test_… or a restricted rk_…)",
      '/payments/stripe/webhookSecretEnv environment variable PORTAL_STRIPE_WEBHOOK_SECRET_ACME is not set here: a server without it answers every stripe payment with "payment unavailable"',
    ]);
  });
});
