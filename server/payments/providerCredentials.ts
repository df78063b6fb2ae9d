/**
 * A hosted provider's credentials (docs/architecture.md "Payments", Going live step 6): the tenant file names
 * the server's environment variables (`payments.stripe.secretKeyEnv`, `payments.mollie.apiKeyEnv`),
 * never the secrets, as for the webhook secrets (secretEnv). They are read when a payment needs
 * them, so a secret rotated in the environment of a restarted server is used without a new build.
 *
 * Where the SDKs send their requests is the server operator's to say, never a tenant file's:
 * PORTAL_STRIPE_API_URL and PORTAL_MOLLIE_API_URL point them at a local stand-in of the provider's
 * API (tests, a staging box); unset, they talk to api.stripe.com and api.mollie.com.
 */
import { HttpError } from '../http/errors';
import type { ServerTenant } from '../tenancy/tenantContext';
import { MOLLIE_API_KEY, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from '../../tenant/paymentProviderRules';

type Env = Readonly<Record<string, string | undefined>>;

export interface StripeCredentials {
  secretKey: string;
  webhookSecret: string;
}

/** Why a provider cannot be used: 503 payment_unavailable, logged with the variable's name (never its value). */
function missing(tenant: ServerTenant, what: string): HttpError {
  return new HttpError(
    503,
    'payment_unavailable',
    `Payments of ${tenant.id} are not available: ${what}. See docs/going-live.md "6. Payments".`,
  );
}

function secretFrom(tenant: ServerTenant, name: string | undefined, form: RegExp, env: Env): string {
  if (!name) throw missing(tenant, 'the tenant file names no environment variable for the secret');
  const value = env[name];
  if (!value) throw missing(tenant, `environment variable ${name} is not set`);
  if (!form.test(value))
    throw missing(tenant, `environment variable ${name} does not hold a key of the provider's form`);
  return value;
}

export function stripeCredentials(tenant: ServerTenant, env: Env = process.env): StripeCredentials {
  const settings = tenant.payments?.stripe;
  return {
    secretKey: secretFrom(tenant, settings?.secretKeyEnv, STRIPE_SECRET_KEY, env),
    webhookSecret: secretFrom(tenant, settings?.webhookSecretEnv, STRIPE_WEBHOOK_SECRET, env),
  };
}

export function mollieApiKey(tenant: ServerTenant, env: Env = process.env): string {
  return secretFrom(tenant, tenant.payments?.mollie?.apiKeyEnv, MOLLIE_API_KEY, env);
}

/** A provider API's root the operator set (a stand-in), as a URL; undefined for the provider's own. */
export function apiUrlOverride(
  name: 'PORTAL_STRIPE_API_URL' | 'PORTAL_MOLLIE_API_URL',
  env: Env = process.env,
): URL | undefined {
  const value = env[name];
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new Error(`${name} must be an http(s) URL, not ${JSON.stringify(value.slice(0, 100))}`);
}
