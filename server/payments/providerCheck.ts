/**
 * `portal payments check <tenant>` (docs/architecture.md "Payments", Going live step 6): before a publisher
 * goes live, the tenant's provider is asked one harmless question with the tenant's credentials — Stripe
 * its balance, Mollie its payment methods — so a wrong or missing key shows up on the operator's
 * screen rather than in a subscriber's popup. It also says where the provider's webhook goes.
 */
import type { ServerTenant } from '../tenancy/tenantContext';
import { paymentProviderOf } from '../../tenant/paymentProviderRules';
import { mollieClient } from './mollieGateway';
import { mollieApiKey, stripeCredentials } from './providerCredentials';
import { stripeClient } from './stripeGateway';

export interface ProviderCheck {
  ok: boolean;
  /** Lines for the operator, each a finding. */
  lines: string[];
}

/** The URLs the provider calls and sends subscribers back to, under each of the tenant's addresses. */
export function webhookUrls(tenant: ServerTenant, provider: string, publicUrl: string | undefined): string[] {
  const path = `api/payments/${provider}/webhook`;
  const shared = publicUrl ? [`${publicUrl.replace(/\/$/, '')}/t/${tenant.id}/${path}`] : [];
  return [...(tenant.hosts ?? []).map((host) => `https://${host}/${path}`), ...shared];
}

export async function checkPaymentProvider(
  tenant: ServerTenant,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ProviderCheck> {
  const provider = paymentProviderOf(tenant);
  const lines: string[] = [];
  const fail = (line: string): ProviderCheck => ({ ok: false, lines: [...lines, line] });
  if (provider === undefined)
    return fail(
      `${tenant.id} names no payment provider (payments.provider): its paid offers answer "payment unavailable".`,
    );
  if (provider === 'sandbox')
    return {
      ok: true,
      lines: [`${tenant.id} uses the sandbox: its payment page takes test cards and moves no money.`],
    };
  // The server's own settings first: a variable not set is this machine's to fix, and the provider
  // is not asked.
  let key: string;
  try {
    key = provider === 'stripe' ? stripeCredentials(tenant, env).secretKey : mollieApiKey(tenant, env);
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)} ${provider} was not asked.`);
  }
  try {
    if (provider === 'stripe') {
      const secretKey = key;
      const mode = /_live_/.test(secretKey) ? 'live' : 'test';
      const balance = await stripeClient(secretKey).balance.retrieve();
      lines.push(
        `Stripe accepted the ${mode} key of ${tenant.id} (balance read: ${balance.available.map((a) => a.currency.toUpperCase()).join(', ') || 'no currency yet'}).`,
      );
      if (mode === 'test')
        lines.push('This is a test key: payments use Stripe test cards and move no money.');
    } else {
      const apiKey = key;
      const mode = apiKey.startsWith('live_') ? 'live' : 'test';
      const methods = await mollieClient(apiKey).methods.list();
      const ids = methods.map((method) => method.id);
      lines.push(
        `Mollie accepted the ${mode} key of ${tenant.id} (methods enabled: ${ids.join(', ') || 'none'}).`,
      );
      for (const needed of ['creditcard', 'paypal'])
        if (!ids.includes(needed as never))
          lines.push(
            `Method ${needed} is not enabled in Mollie's dashboard: subscribers paying with it are refused there.`,
          );
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(`${provider} refused or could not be reached: ${message}`);
  }
  const urls = webhookUrls(tenant, provider, env.PORTAL_PUBLIC_URL);
  if (provider === 'stripe')
    lines.push(
      `In Stripe's dashboard, add the webhook endpoint ${urls[0] ?? `https://<portal>/t/${tenant.id}/api/payments/stripe/webhook`} with the events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed and checkout.session.expired; its signing secret goes into ${tenant.payments?.stripe?.webhookSecretEnv}.`,
    );
  else
    lines.push(
      `Mollie calls ${urls[0] ?? `https://<portal>/t/${tenant.id}/api/payments/mollie/webhook`} with every payment; it must be reachable from the internet.`,
    );
  return { ok: true, lines };
}
