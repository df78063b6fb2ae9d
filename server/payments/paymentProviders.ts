/**
 * The payment providers a tenant may choose (`payments.provider`, docs/architecture.md "Payments"), and what
 * the portal does with a payment beside its pages: giving one up at its provider, and asking providers
 * about payments whose report never came (the reconciliation job).
 */
import type { Database } from '../db/database';
import type { Logger } from '../http/requestLog';
import { findPaymentRecord, pendingHostedPayments } from '../store/paymentStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { PaymentProvider, ProviderOutcome, SettlePayment } from './paymentProvider';
import { createSandboxProvider } from './sandboxProvider';
import { createHostedProvider } from './hostedCheckout';
import { createStripeGateway } from './stripeGateway';
import { createMollieGateway } from './mollieGateway';
import { isExpired } from './paymentPages';

/** A hosted payment is asked about once its webhook is this late (issue's "a few minutes"). */
export const RECONCILE_AFTER_MINUTES = 5;
/** Payments asked about per round; the oldest first. */
const RECONCILE_BATCH = 100;

export function createPaymentProviders(deps: {
  db: Database;
  now: () => Date;
  log: Logger;
}): ReadonlyMap<string, PaymentProvider> {
  return new Map<string, PaymentProvider>([
    ['sandbox', createSandboxProvider(deps)],
    ['stripe', createHostedProvider(createStripeGateway(deps), deps)],
    ['mollie', createHostedProvider(createMollieGateway(deps), deps)],
  ]);
}

/**
 * Settling as the portal's own flows ask for it (offers, bulk renewal, the payment method change):
 * a payment they give up (`canceled`: the popup was closed, its page expired) is first given up at
 * its provider, which may answer that it was paid a moment ago (settled as paid, never cancelled
 * with the money taken) or that it cannot be stopped now (left pending: its report settles it). A
 * provider out of reach leaves it pending too; the reconciliation job asks again.
 */
export function settlingThroughProviders(
  deps: { db: Database; log: Logger },
  providers: ReadonlyMap<string, PaymentProvider>,
  settle: SettlePayment,
): SettlePayment {
  return async (tenant, paymentId, status) => {
    if (status !== 'canceled') return settle(tenant, paymentId, status);
    const payment = await findPaymentRecord(deps.db, tenant.id, paymentId);
    const provider = payment ? providers.get(payment.provider) : undefined;
    if (!payment || payment.status !== 'pending' || !provider?.cancel)
      return settle(tenant, paymentId, status);
    let outcome: ProviderOutcome;
    try {
      outcome = await provider.cancel(tenant, payment);
    } catch (error) {
      deps.log({
        level: 'warn',
        msg: 'payment provider unreachable',
        tenant: tenant.id,
        provider: payment.provider,
        error: String(error),
      });
      return false;
    }
    return outcome === 'pending' ? false : settle(tenant, paymentId, outcome);
  };
}

/**
 * One round of the reconciliation job (server/main.ts): every hosted payment still pending
 * RECONCILE_AFTER_MINUTES after it started is asked about at its provider and settled from the
 * answer; one whose page expired (PAYMENT_EXPIRY_MINUTES) is given up there and ends as cancelled.
 * A lost webhook costs minutes, not the subscriber's purchase.
 */
export function paymentReconciliation(deps: {
  db: Database;
  now: () => Date;
  log: Logger;
  tenants: (id: string) => ServerTenant | undefined;
  providers: ReadonlyMap<string, PaymentProvider>;
  settle: SettlePayment;
}): () => Promise<{ asked: number; settled: number }> {
  return async () => {
    const before = new Date(deps.now().getTime() - RECONCILE_AFTER_MINUTES * 60_000);
    let asked = 0;
    let settled = 0;
    for (const { tenantId, id } of await pendingHostedPayments(deps.db, before, RECONCILE_BATCH)) {
      const tenant = deps.tenants(tenantId);
      const payment = tenant ? await findPaymentRecord(deps.db, tenantId, id) : null;
      const provider = payment ? deps.providers.get(payment.provider) : undefined;
      if (!tenant || !payment || !provider?.outcome || payment.status !== 'pending') continue;
      asked += 1;
      try {
        let outcome = await provider.outcome(tenant, payment);
        if (outcome === 'pending' && isExpired(payment, deps.now()) && provider.cancel)
          outcome = await provider.cancel(tenant, payment);
        if (outcome !== 'pending' && (await deps.settle(tenant, id, outcome))) settled += 1;
      } catch (error) {
        deps.log({
          level: 'warn',
          msg: 'payment reconciliation failed',
          tenant: tenantId,
          provider: payment.provider,
          payment: id,
          error: String(error),
        });
      }
    }
    return { asked, settled };
  };
}
