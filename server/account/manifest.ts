/**
 * What several account features share (docs/architecture.md "Where a change goes"): the file
 * downloads, the invoice requests (the service is built once as SharedServices.invoiceRequests) and
 * the job that applies dated changes of the address change and the payment method change.
 */
import type { FeatureManifest } from '../featureManifest';
import { fileRoutes } from './fileRoutes';
import { accountPersonalData } from './personalData';
import { startDueChanges } from '../jobs/dueChanges';

export const accountManifest: FeatureManifest = {
  id: 'account',
  routers: (deps) => [{ router: fileRoutes(deps) }],
  jobs: [
    {
      // Dated address changes and payment method changes take effect on their day (server/jobs/dueChanges.ts).
      name: 'due changes',
      start: ({ db, log }) => startDueChanges(db, { log }),
    },
  ],
  personalData: accountPersonalData,
  events: ['invoice.requested'],
};
