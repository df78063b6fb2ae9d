/** E-cards (account-flows.md §2, §9). */
import type { FeatureManifest } from '../featureManifest';
import { createECards } from './eCardService';
import { eCardImageRoutes, eCardSlice } from './eCardRoutes';
import { eCardPersonalData } from './personalData';
import { eCardClockOffsetFromEnv, startECards } from '../jobs/eCards';
import { cancelScheduledECard } from '../store/eCardStore';

export const eCardManifest: FeatureManifest = {
  id: 'e-card',
  routers: (deps) => [
    { slice: eCardSlice({ auth: deps.auth, eCards: createECards(deps) }) },
    { router: eCardImageRoutes({}) },
  ],
  jobs: [
    {
      // Timed e-cards go out at their time (account-flows.md §9); the mail sender delivers them.
      name: 'e-cards',
      start: ({ db, tenants, log, mailFrom }) =>
        startECards(db, {
          tenants,
          mailFrom,
          log,
          clockOffsetMs: eCardClockOffsetFromEnv(),
          intervalMs:
            Number(process.env.PORTAL_E_CARD_INTERVAL_MS) > 0
              ? Number(process.env.PORTAL_E_CARD_INTERVAL_MS)
              : undefined,
        }),
    },
  ],
  personalData: eCardPersonalData,
  events: ['e_card.scheduled', 'e_card.sent', 'e_card.cancelled'],
  rejections: {
    // A timed card the order system refused is not sent: still waiting, it is taken off the list
    // and the job's queue (one already sent is gone out, and stays so).
    'e_card.scheduled': async (tx, { tenantId, data }) =>
      typeof data.userId === 'string' && typeof data.eCardId === 'string'
        ? (await cancelScheduledECard(tx, tenantId, data.userId, data.eCardId)) !== undefined
        : false,
  },
};
