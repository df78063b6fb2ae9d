/**
 * Invoice documents made ahead (docs/invoices.md "Issued documents, made once"): every instance
 * runs this job; each round makes the documents of a few invoices that have none kept yet — the
 * newest first, after an import or an order system's upsert — so that the first download or "Download
 * my data" after an import serves kept documents instead of making them while the client waits.
 *
 * Each invoice is made as the download of the account that pays for it (AG, else RE) would make
 * it, in the tenant's default language: the same inputs, so the same fingerprint, and that
 * download then finds the document kept (server/documents/issuedInvoices.ts). Another language or
 * an invoice recipient's own view is made on its first request, as before.
 *
 * Bounded so that it never holds up requests: at most PER_ROUND documents a round, one after the
 * other with a turn of the event loop between them, and one round at a time (periodicJob.ts).
 * Two instances may pick the same invoice: the document's advisory lock makes it once. An invoice
 * whose document cannot be made (its data refused) is skipped for the rest of the process's life,
 * so it cannot hold up the others; its download still tries, and says why.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from '../db/database';
import { startPeriodicJob } from './periodicJob';
import { invoicesWithoutDocuments } from '../store/issuedInvoiceDocumentStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import { partnersOfSubscription } from '../store/accountChangeStore';
import { findPayment } from '../store/orderStore';
import { billedParty } from '../documents/invoicePdf';
import { canMakeXRechnung, isBusiness } from '../documents/eInvoice';
import { invoicesAddressedTo, issuedInvoicePdf, issuedXRechnung } from '../documents/issuedInvoices';
import type { ServerTenant } from '../tenancy/tenantContext';

/** Invoices made per round, over all tenants: a second or two of work on this machine. */
export const PER_ROUND = 4;

export interface InvoiceDocumentJobDeps {
  tenants: readonly ServerTenant[];
  log?: (entry: Record<string, unknown>) => void;
  now?: () => Date;
  perRound?: number;
}

/** Makes the documents of up to `perRound` invoices that have none kept; answers how many invoices. */
export async function makeInvoiceDocuments(
  db: Database,
  deps: InvoiceDocumentJobDeps,
  skipped: Set<string> = new Set(),
  isStopping: () => boolean = () => false,
): Promise<number> {
  const now = deps.now ?? (() => new Date());
  let budget = deps.perRound ?? PER_ROUND;
  let made = 0;
  for (const tenant of deps.tenants) {
    // Every tenant: "Download my data" carries the invoices whether or not the subscription page
    // offers their download (docs/subscribers.md "Download my data").
    if (budget <= 0 || isStopping()) break;
    const locale = tenant.defaultLocale;
    const waiting = (await invoicesWithoutDocuments(db, tenant.id, locale, budget + skipped.size)).filter(
      (invoice) => !skipped.has(`${tenant.id}/${invoice.subscriptionId}/${invoice.paymentId}`),
    );
    for (const invoice of waiting.slice(0, budget)) {
      if (isStopping()) break;
      budget--;
      const name = `${tenant.id}/${invoice.subscriptionId}/${invoice.paymentId}`;
      try {
        const subscription = await getSubscriptionForUser(
          db,
          tenant.id,
          invoice.userId,
          invoice.subscriptionId,
          { locale },
        );
        const payment = await findPayment(db, tenant.id, invoice.subscriptionId, invoice.paymentId);
        if (!subscription || !payment) throw new Error('the subscription or the payment is gone');
        const billedTo = billedParty(
          await partnersOfSubscription(db, tenant.id, subscription.id, invoice.userId),
          subscription.orderingParty,
        );
        const issued = {
          tenantId: tenant.id,
          subscriptionId: subscription.id,
          input: { tenant, locale, subscription, payment, billedTo },
        };
        await issuedInvoicePdf(db, issued, { now });
        // Whom the PDF just made is addressed to decides, as on the download (issuedInvoices.ts).
        const addressedTo = canMakeXRechnung(tenant)
          ? await invoicesAddressedTo(db, issued, [payment], billedTo)
          : undefined;
        if (isBusiness(addressedTo?.get(payment.id))) await issuedXRechnung(db, issued, { now });
        made++;
      } catch (error) {
        skipped.add(name);
        deps.log?.({
          level: 'warn',
          msg: 'invoice document not made ahead',
          invoice: name,
          error: String(error),
        });
      }
      // Let the requests waiting on this process run between two documents.
      await nextTurn();
    }
  }
  return made;
}

/** Starts the job (every 15 s; PORTAL_INVOICE_DOCUMENTS_INTERVAL_MS for tests and the demo). */
export function startInvoiceDocuments(
  db: Database,
  deps: InvoiceDocumentJobDeps & { intervalMs?: number },
): () => Promise<void> {
  const skipped = new Set<string>();
  return startPeriodicJob(
    'invoice documents',
    (isStopping) => makeInvoiceDocuments(db, deps, skipped, isStopping),
    {
      intervalMs: deps.intervalMs ?? 15_000,
      log: deps.log,
    },
  );
}
