/**
 * Rules of `payments` beyond the schema (docs/architecture.md "Payments", Going live step 6): a hosted
 * provider needs its settings, and the environment variables they name must hold secrets of the provider's
 * form where the server runs. Like the webhook secrets' (crossFieldRules.ts webhookSecretWarnings),
 * a variable missing where `portal validate` runs is a warning, not an error: the operator's laptop
 * or CI is rarely the server. `portal payments check <tenant>` then asks the provider itself.
 */
import type { Problem } from './schemaErrors';

type Loose = Record<string, unknown>;

const isRecord = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The forms of the secrets, as the providers document them (the server checks them too). */
export const STRIPE_SECRET_KEY = /^(sk|rk)_(live|test)_[A-Za-z0-9]+$/;
export const STRIPE_WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]+$/;
export const MOLLIE_API_KEY = /^(live|test)_[A-Za-z0-9]+$/;

interface SecretSetting {
  provider: 'stripe' | 'mollie';
  field: string;
  form: RegExp;
  what: string;
  example: string;
}

const SECRETS: readonly SecretSetting[] = [
  {
    provider: 'stripe',
    field: 'secretKeyEnv',
    form: STRIPE_SECRET_KEY,
    what: "the Stripe account's secret key (sk_live_…, sk_test_… or a restricted rk_…)",
    example: 'PORTAL_STRIPE_KEY_',
  },
  {
    provider: 'stripe',
    field: 'webhookSecretEnv',
    form: STRIPE_WEBHOOK_SECRET,
    what: "the signing secret of the portal's webhook endpoint in Stripe's dashboard (whsec_…)",
    example: 'PORTAL_STRIPE_WEBHOOK_SECRET_',
  },
  {
    provider: 'mollie',
    field: 'apiKeyEnv',
    form: MOLLIE_API_KEY,
    what: 'the Mollie API key (live_… or test_…)',
    example: 'PORTAL_MOLLIE_KEY_',
  },
];

/**
 * The provider a tenant's payments go to: the one `payments.provider` names; without one, the
 * sandbox for a demo tenant and none for a publisher's, whose paid offers then answer "payment
 * unavailable" rather than taking test cards that move no money (docs/architecture.md "Payments").
 */
export function paymentProviderOf(tenant: {
  demo?: boolean;
  payments?: { provider?: string } | null;
}): string | undefined {
  return tenant.payments?.provider ?? (tenant.demo === true ? 'sandbox' : undefined);
}

function paymentsOf(tenant: Loose): { provider: string | undefined; settings: Loose } {
  const payments = isRecord(tenant.payments) ? tenant.payments : {};
  return {
    provider: paymentProviderOf({
      demo: tenant.demo === true,
      payments: { provider: text(payments.provider) },
    }),
    settings: payments,
  };
}

/** Errors: the chosen provider's settings are missing (the schema checks their form once present). */
export function paymentProviderRules(tenant: Loose): Problem[] {
  const { provider, settings } = paymentsOf(tenant);
  if (provider !== 'stripe' && provider !== 'mollie') return [];
  if (isRecord(settings[provider])) return [];
  const id =
    text(tenant.id)
      ?.toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_') ?? 'TENANT';
  const fields = SECRETS.filter((s) => s.provider === provider)
    .map((s) => `"${s.field}": "${s.example}${id}"`)
    .join(', ');
  return [
    {
      pointer: '/payments/provider',
      at: 'value',
      message: `payments.provider is ${provider}, and payments.${provider} does not say where its credentials are`,
      hint: `add "${provider}": { ${fields} } to payments and set those environment variables where the server runs`,
    },
  ];
}

/** Warnings: a variable the chosen provider needs is not set here, or does not hold a secret of its form. */
export function paymentSecretWarnings(
  tenant: Loose,
  env: Readonly<Record<string, string | undefined>>,
): Problem[] {
  const { provider, settings } = paymentsOf(tenant);
  if (provider === undefined) return [];
  const own = isRecord(settings[provider]) ? (settings[provider] as Loose) : undefined;
  if (!own) return [];
  const warnings: Problem[] = [];
  for (const secret of SECRETS.filter((s) => s.provider === provider)) {
    const name = text(own[secret.field]);
    if (!name) continue;
    const pointer = `/payments/${provider}/${secret.field}`;
    const value = env[name];
    if (!value)
      warnings.push({
        pointer,
        at: 'value',
        message: `environment variable ${name} is not set here: a server without it answers every ${provider} payment with "payment unavailable"`,
        hint: `set ${name} to ${secret.what} where the server runs, then run \`portal payments check\``,
      });
    else if (!secret.form.test(value))
      warnings.push({
        pointer,
        at: 'value',
        message: `environment variable ${name} does not hold ${secret.what}`,
        hint: `copy it again from the provider's dashboard into ${name}`,
      });
  }
  return warnings;
}
