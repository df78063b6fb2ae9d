/**
 * Changes that take effect on a later day: addresses changed "from a date" (account-flows.md
 * §4 "Address change timing") and payment method changes, which take effect at the end of the payment
 * period (§4 "Payment method change"). Every instance runs the job; rows are claimed with
 * `for update skip locked`, so each change is applied once.
 */
import type { Database } from '../db/database';
import { startPeriodicJob } from './periodicJob';
import { dueChangesApplied } from '../metrics/registry';
import { continueChangeOf, eventOfChange } from '../store/orderSystemOverlays';
import {
  claimDueFutureAddresses,
  claimDuePaymentMethodChanges,
  markFutureAddressApplied,
  markFutureAddressFailed,
  updatePartner,
} from '../store/accountChangeStore';
import { lockSubscriptionDataVersions, updateSubscription } from '../store/subscriptionStore';
import type { PaymentMethodKind } from '../store/rows';
import { paymentMethodFields } from '../../engine/domain/paymentMethodChange';

/** SQLSTATEs of a write that lost a race, not of a bad change: deadlock, serialization failure. */
const TRANSIENT: ReadonlySet<string> = new Set(['40P01', '40001']);

/**
 * Applies what is due on `today`; answers how many changes were applied. Each change runs behind a
 * savepoint: one that fails (bad data) is rolled back alone and set aside, so it cannot hold up the
 * changes of every other partner and tenant.
 */
export async function applyDueChanges(
  db: Database,
  today: string,
  log?: (entry: Record<string, unknown>) => void,
): Promise<number> {
  return db
    .transaction(async (tx) => {
      let applied = 0;
      const tenants = new Set<string>();
      const attempt = async (
        what: Record<string, unknown> & { tenantId: string },
        apply: () => Promise<void>,
        setAside: (error: string) => Promise<void>,
      ) => {
        tenants.add(what.tenantId);
        await tx.query('savepoint due_change');
        try {
          await apply();
          await tx.query('release savepoint due_change');
          applied++;
        } catch (error) {
          await tx.query('rollback to savepoint due_change');
          log?.({ level: 'warn', msg: 'due change failed', ...what, error: String(error) });
          // A deadlock with a subscriber's change of the same partner (which holds the partner,
          // then writes its dated changes) is no fault of the change: the next round tries again.
          if (!TRANSIENT.has((error as { code?: string } | null)?.code ?? '')) await setAside(String(error));
        }
      };
      for (const due of await claimDueFutureAddresses(tx, today)) {
        await attempt(
          { kind: 'address', tenantId: due.tenantId, bpNumber: due.bpNumber },
          async () => {
            // The write is the dated change's own: the order system answers it through its event.
            await continueChangeOf(tx, due.eventId);
            await updatePartner(tx, due.tenantId, due.bpNumber, due.address);
            await continueChangeOf(tx, null);
            await markFutureAddressApplied(tx, due.tenantId, due.bpNumber, due.validFrom);
          },
          (error) => markFutureAddressFailed(tx, due.tenantId, due.bpNumber, due.validFrom, error),
        );
      }
      for (const due of await claimDuePaymentMethodChanges(tx, today)) {
        await attempt(
          { kind: 'payment method', tenantId: due.tenantId, subscriptionId: due.id },
          async () => {
            await continueChangeOf(
              tx,
              await eventOfChange(tx, due.tenantId, 'subscriptions', due.id, 'details.pendingPaymentMethod'),
            );
            await updateSubscription(tx, due.tenantId, due.id, {
              details: {
                ...paymentMethodFields(due.pending.paymentMethod as PaymentMethodKind),
                paymentAccount: due.pending.account,
                pendingPaymentMethod: null,
              },
            });
            await continueChangeOf(tx, null);
          },
          async (error) =>
            updateSubscription(tx, due.tenantId, due.id, {
              details: { pendingPaymentMethod: null, failedPaymentMethodChange: { ...due.pending, error } },
            }),
        );
      }
      // One transaction for every tenant: their subscription data versions (migration 015) are
      // locked now, in tenant order, not at commit in the order the changes came, so two instances
      // committing at once cannot deadlock on them.
      await lockSubscriptionDataVersions(tx, [...tenants]);
      return applied;
    })
    .then((applied) => {
      // Counted once committed: a rolled-back round applied nothing.
      dueChangesApplied.inc(applied);
      return applied;
    });
}

export function startDueChanges(
  db: Database,
  options: { log?: (entry: Record<string, unknown>) => void; intervalMs?: number } = {},
): () => Promise<void> {
  return startPeriodicJob(
    'due changes',
    () => applyDueChanges(db, new Date().toISOString().slice(0, 10), options.log),
    { intervalMs: options.intervalMs ?? 60_000, log: options.log },
  );
}
