/** Invoice documents: made ahead and kept (docs/invoices.md "Issued documents, made once"). */
import type { FeatureManifest } from '../featureManifest';
import { documentsPersonalData } from './personalData';
import { startInvoiceDocuments } from '../jobs/invoiceDocuments';

export const documentsManifest: FeatureManifest = {
  id: 'documents',
  jobs: [
    {
      // The documents of new invoices are made ahead, a few at a time (server/jobs/invoiceDocuments.ts),
      // so the first download or data export after an import serves kept ones.
      name: 'invoice documents',
      start: ({ db, tenants, log }) =>
        startInvoiceDocuments(db, {
          tenants,
          log,
          intervalMs:
            Number(process.env.PORTAL_INVOICE_DOCUMENTS_INTERVAL_MS) > 0
              ? Number(process.env.PORTAL_INVOICE_DOCUMENTS_INTERVAL_MS)
              : undefined,
        }),
    },
  ],
  personalData: documentsPersonalData,
};
