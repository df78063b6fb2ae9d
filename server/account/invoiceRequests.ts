/**
 * The one invoice-request service, for a subscription's invoice and a purchase order's alike
 * (portal-core.md §4 "Invoice request", §9 "once a day"): it records the request, its activity and
 * its account event in one transaction, or refuses a second request of the same invoice on the same
 * day with 409 `processing` (held in invoice_requests, so every server instance refuses it).
 * The routes decide the outcome from their own facts with invoiceRequestOutcome (engine/domain).
 */
import type { Database } from '../db/database';
import { utcDay } from '../../engine/domain/dates';
import { HttpError } from '../http/errors';
import { recordInvoiceRequest } from '../store/accountStore';
import { recordEvent } from '../events/recordEvent';
import type { InvoiceRequestStatus } from '../../engine/domain/paymentHistory';

type InvoiceRequestOutcome = Exclude<InvoiceRequestStatus, 'processing'>;

export type InvoiceSubject =
  { kind: 'subscription'; subscriptionId: string } | { kind: 'purchase_order'; purchaseOrderId: string };

export interface InvoiceRequest {
  tenantId: string;
  userId: string;
  subject: InvoiceSubject;
  invoiceNumber: string;
  status: InvoiceRequestOutcome;
}

export function createInvoiceRequests(deps: { db: Database; now: () => Date }) {
  return {
    async request(request: InvoiceRequest): Promise<{ status: InvoiceRequestOutcome }> {
      const { tenantId, userId, subject, invoiceNumber, status } = request;
      const subjectId = subject.kind === 'subscription' ? subject.subscriptionId : subject.purchaseOrderId;
      const recorded = await deps.db.transaction(async (tx) => {
        const first = await recordInvoiceRequest(tx, {
          tenantId,
          userId,
          kind: subject.kind,
          subjectId,
          invoiceNumber,
          day: utcDay(deps.now()),
          status,
        });
        if (first) {
          // The account event and the activity record: only the request that is recorded; a
          // refused repeat changes nothing.
          await recordEvent(
            tx,
            tenantId,
            'invoice.requested',
            {
              userId,
              subjectKind: subject.kind === 'subscription' ? 'subscription' : 'purchase-order',
              subscriptionId: subject.kind === 'subscription' ? subject.subscriptionId : null,
              purchaseOrderId: subject.kind === 'purchase_order' ? subject.purchaseOrderId : null,
              invoiceNumber,
              status,
            },
            {
              activity: { userId, action: 'invoice_request', subjectId, details: { invoiceNumber, status } },
            },
          );
        }
        return first;
      });
      if (!recorded) {
        throw new HttpError(
          409,
          'processing',
          'This invoice was already requested today; it is being processed. You can request it again tomorrow.',
          {
            status: 'processing',
          },
        );
      }
      return { status };
    },
  };
}

export type InvoiceRequests = ReturnType<typeof createInvoiceRequests>;
