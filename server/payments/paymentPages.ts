/**
 * Starting a payment on the tenant's provider (server/payments/paymentProvider.ts): the payment row
 * with the hash of a fresh single-use secret, and the provider's page for the popup. Shared by the
 * offer flows (what is bought) and the payment method change (registering a card or PayPal).
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import { HttpError } from '../http/errors';
import { hashToken, newSecretToken } from '../auth/tokens';
import { insertPayment, setPaymentSecret, type PaymentRow } from '../store/paymentStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { PaymentProvider } from './paymentProvider';
import { paymentProviderOf } from '../../tenant/paymentProviderRules';

/** A payment page left unpaid this long is void: it settles as cancelled (its offer may be accepted again). */
export const PAYMENT_EXPIRY_MINUTES = 60;
export const isExpired = (payment: Pick<PaymentRow, 'createdAt'>, now: Date) =>
  now.getTime() - new Date(payment.createdAt).getTime() > PAYMENT_EXPIRY_MINUTES * 60_000;

export interface PaymentStart {
  tenant: ServerTenant;
  userId: string;
  locale: Locale;
  basePath: string;
  method: 'CREDIT_CARD' | 'PAYPAL';
  amount: number;
  currency: string;
  description: string;
  purpose: PaymentRow['purpose'];
  details?: Record<string, unknown>;
}

export function createPaymentPages(providers: ReadonlyMap<string, PaymentProvider>) {
  function providerFor(tenant: ServerTenant): PaymentProvider {
    const id = paymentProviderOf(tenant);
    const provider = id === undefined ? undefined : providers.get(id);
    if (!provider)
      throw new HttpError(
        503,
        'payment_unavailable',
        id === undefined
          ? 'This portal takes no payments: its tenant file names no payment provider.'
          : `The payment provider ${id} is not available.`,
      );
    return provider;
  }

  return {
    /** A pending payment and the page to pay it on. */
    async start(tx: Queryable, input: PaymentStart): Promise<{ id: string; url: string }> {
      const provider = providerFor(input.tenant);
      const secret = newSecretToken();
      const amount = Math.round(input.amount * 100) / 100;
      const id = await insertPayment(tx, input.tenant.id, {
        userId: input.userId,
        provider: provider.id,
        method: input.method,
        amount,
        currency: input.currency,
        secretHash: hashToken(secret),
        locale: input.locale,
        description: input.description,
        purpose: input.purpose,
        details: input.details ?? {},
      });
      const page = await provider.createPaymentPage({
        tenant: input.tenant,
        paymentId: id,
        secret,
        amount,
        currency: input.currency,
        description: input.description,
        method: input.method,
        locale: input.locale,
        basePath: input.basePath,
        purpose: input.purpose,
      });
      return { id, url: page.url };
    },

    /**
     * Stops the page of a payment the portal has cancelled already (a cancellation voided it), at
     * its provider, so it takes no money any more. Best effort: a provider out of reach, or one
     * that was paid a moment ago, leaves it to the provider's report, which settles such a payment
     * as an error to refund (paymentStore's paidAfterCancel).
     */
    async stopPage(tenant: ServerTenant, payment: PaymentRow): Promise<void> {
      try {
        await providers.get(payment.provider)?.cancel?.(tenant, payment);
      } catch {
        // Out of reach: its report or the reconciliation job settles it.
      }
    },

    /** A new page for a payment still pending (a repeated request): the old page's key stops working. */
    async reopen(
      tx: Queryable,
      tenant: ServerTenant,
      payment: PaymentRow,
      basePath: string,
    ): Promise<string> {
      const secret = newSecretToken();
      await setPaymentSecret(tx, tenant.id, payment.id, hashToken(secret));
      const page = await providerFor(tenant).createPaymentPage({
        tenant,
        paymentId: payment.id,
        secret,
        amount: payment.amount,
        currency: payment.currency,
        description: payment.description,
        method: payment.method,
        locale: payment.locale,
        basePath,
        purpose: payment.purpose,
      });
      return page.url;
    },
  };
}

export type PaymentPages = ReturnType<typeof createPaymentPages>;
