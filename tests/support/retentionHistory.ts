/**
 * A made-up, reproducible retention history for a tenant: eight weeks of cancellation
 * flows per publication and reason, renewals and upgrades offered, with outcomes, written as the
 * account events the flows record. Subscribers in an offer experiment's flow see their variant,
 * and a variant with offers keeps more of them than one without. The insights page's journey
 * (tests/e2e/insights.spec.ts) and the README's screenshot use it.
 *
 *   npx tsx tests/support/retentionHistory.ts <data dir> <tenant id> [tenant file]
 *
 * writes it into the embedded PostgreSQL under <data dir> (a running portal's is shared).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Queryable } from '../../server/db/database';
import { experimentAssignment, type OfferExperiment } from '../../engine/domain/offerExperiments';
import { Prng, hashString } from '../../server/seed/prng';

const DAY = 86_400_000;
const PUBLICATIONS = ['TWM', 'TWD'];
const REASONS = ['PREIS', 'ZEIT', 'UMZUG'];

export async function seedRetentionHistory(
  db: Queryable,
  tenantId: string,
  experiments: readonly OfferExperiment[],
  now = new Date(),
  days = 56,
): Promise<number> {
  const prng = new Prng(hashString(`retention-history:${tenantId}`));
  const tenant = { id: tenantId, offerExperiments: experiments };
  const rows: unknown[][] = [];
  const event = (
    type: string,
    subscriptionId: string,
    userId: string,
    at: Date,
    data: Record<string, unknown>,
  ) =>
    rows.push([tenantId, randomUUID(), type, userId, subscriptionId, JSON.stringify(data), at.toISOString()]);
  let n = 0;
  for (let d = days; d >= 1; d--) {
    const day = new Date(now.getTime() - d * DAY);
    for (const publication of PUBLICATIONS)
      for (const reason of REASONS) {
        if (prng.next() > 0.7) continue;
        n += 1;
        const userId = `history-user-${n}`;
        const subscriptionId = `H${String(n).padStart(6, '0')}`;
        const at = new Date(day.getTime() + Math.floor(prng.next() * 20) * 3_600_000);
        const assigned = experimentAssignment(tenant, 'cancellation', reason, userId);
        const offerIds = assigned
          ? [...assigned.variant.offers]
          : reason === 'UMZUG'
            ? []
            : [`${publication}-KEEP-HALF`];
        event('offer_flow.started', subscriptionId, userId, at, {
          userId,
          subscriptionId,
          orderNumber: String(4_100_000_000 + n),
          publication,
          flow: 'cancellation',
          reason,
          offerIds,
          experiment: assigned?.assignment ?? null,
        });
        // Offers keep some; without one, fewer stay (and moving house is hard to stop).
        const keeps = offerIds.length > 0 ? 0.45 : reason === 'UMZUG' ? 0.1 : 0.25;
        const draw = prng.next();
        const later = new Date(at.getTime() + 4 * 60_000);
        if (offerIds.length > 0 && draw < keeps * 0.7)
          event('offer.accepted', subscriptionId, userId, later, {
            userId,
            subscriptionId,
            offerId: offerIds[0],
            source: 'cancellation',
            amount: 29.9,
            currency: 'EUR',
          });
        else if (draw >= keeps)
          event('subscription.cancelled', subscriptionId, userId, later, {
            userId,
            subscriptionId,
            reason,
            type: 'regular',
            experiment: assigned?.assignment ?? null,
          });
      }
    for (const flow of ['renewal', 'upgrade'] as const) {
      if (prng.next() > (flow === 'renewal' ? 0.8 : 0.4)) continue;
      n += 1;
      const userId = `history-user-${n}`;
      const subscriptionId = `H${String(n).padStart(6, '0')}`;
      const at = new Date(day.getTime() + 9 * 3_600_000);
      event('offer_flow.started', subscriptionId, userId, at, {
        userId,
        subscriptionId,
        orderNumber: String(4_100_000_000 + n),
        publication: 'TWM',
        flow,
        reason: null,
        offerIds: [flow === 'renewal' ? 'TWM-RENEW-12' : 'TWM-UPGRADE-NOW'],
        experiment: null,
      });
      if (prng.next() < (flow === 'renewal' ? 0.5 : 0.3))
        event('offer.accepted', subscriptionId, userId, new Date(at.getTime() + 60_000), {
          userId,
          subscriptionId,
          offerId: flow === 'renewal' ? 'TWM-RENEW-12' : 'TWM-UPGRADE-NOW',
          source: flow,
          amount: flow === 'renewal' ? 119 : 24,
          currency: 'EUR',
        });
    }
  }
  for (const row of rows)
    await db.query(
      `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data, created_at, dispatched_at)
       values ($1, $2, $3, $4, 'subscription', $5, $6::jsonb, $7, $7)`,
      row,
    );
  return rows.length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [dataDir, tenantId, tenantFile] = process.argv.slice(2);
  const { openDatabase } = await import('../../server/db/openDatabase');
  const { migrate } = await import('../../server/db/migrate');
  const experiments = tenantFile
    ? ((JSON.parse(readFileSync(tenantFile, 'utf8')) as { offerExperiments?: OfferExperiment[] })
        .offerExperiments ?? [])
    : [];
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir, shareRunning: true });
  try {
    await migrate(db);
    console.log(`${await seedRetentionHistory(db, tenantId, experiments)} events written for ${tenantId}`);
  } finally {
    await db.close();
  }
}
