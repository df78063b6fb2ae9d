/**
 * Changes that take effect on a later day (issue 12): addresses changed "from a date" (account-flows.md
 * §4 "Address change timing") and payment method changes, which take effect at the end of the payment
 * period (§4 "Payment method change"). Every instance runs the job; rows are claimed with
 * `for update skip locked`, so each change is applied once.
 */
import type { Database } from '../db/database';
import { startPeriodicJob } from './periodicJob';
import { claimDueFutureAddresses, claimDuePaymentMethodChanges, markFutureAddressApplied, updatePartner } from '../store/accountChangeStore';
import { updateSubscription } from '../store/offerStore';
import type { PaymentMethodKind, SubscriptionDetails } from '../store/rows';

/** portal-core.md §9 "Payment method mapping": E direct debit; K credit card; sub payment method 660 PayPal, 000 invoice. */
export function paymentMethodFields(kind: PaymentMethodKind): Pick<SubscriptionDetails, 'paymentMethod' | 'subOProcessedPMD' | 'paymentDetails'> {
  switch (kind) {
    case 'sepa':
    case 'direct_debit':
      return { paymentMethod: 'E', subOProcessedPMD: { subPaymentMethod: null }, paymentDetails: { paymentMethod: kind } };
    case 'credit_card':
      return { paymentMethod: 'K', subOProcessedPMD: { subPaymentMethod: '001' }, paymentDetails: { paymentMethod: kind } };
    case 'paypal':
      return { paymentMethod: '', subOProcessedPMD: { subPaymentMethod: '660' }, paymentDetails: { paymentMethod: kind } };
    default:
      return { paymentMethod: '', subOProcessedPMD: { subPaymentMethod: '000' }, paymentDetails: { paymentMethod: 'invoice' } };
  }
}

/** Applies what is due on `today`; answers how many changes were applied. */
export async function applyDueChanges(db: Database, today: string): Promise<number> {
  return db.transaction(async (tx) => {
    let applied = 0;
    for (const due of await claimDueFutureAddresses(tx, today)) {
      await updatePartner(tx, due.tenantId, due.bpNumber, due.address);
      await markFutureAddressApplied(tx, due.tenantId, due.bpNumber, due.validFrom);
      applied++;
    }
    for (const due of await claimDuePaymentMethodChanges(tx, today)) {
      await updateSubscription(tx, due.tenantId, due.id, {
        details: { ...paymentMethodFields(due.pending.paymentMethod as PaymentMethodKind), paymentAccount: due.pending.account, pendingPaymentMethod: null },
      });
      applied++;
    }
    return applied;
  });
}

export function startDueChanges(db: Database, options: { log?: (entry: Record<string, unknown>) => void; intervalMs?: number } = {}): () => Promise<void> {
  return startPeriodicJob('due changes', () => applyDueChanges(db, new Date().toISOString().slice(0, 10)), { intervalMs: options.intervalMs ?? 60_000, log: options.log });
}
