/**
 * Timed e-cards (account-flows.md §2 "E-card", §9): every instance runs this job; each round claims
 * the scheduled cards whose time has come with `for update skip locked` and, per card behind a
 * savepoint, queues its e-mail, marks it sent and records `e_card.sent` in the same transaction. A
 * card another instance holds is skipped, a sent one is never claimed again, and cards are rows,
 * so they survive restarts. A card that fails (its tenant gone, bad data) is set aside as failed
 * alone. The clock is a parameter, so tests and the demo can run a round "at" a time.
 */
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import type { Database } from '../db/database';
import { startPeriodicJob } from './periodicJob';
import { claimDueECards, markECardFailed } from '../store/eCardStore';
import { sendECard } from '../e-card/eCardService';
import type { ServerTenant } from '../tenancy/tenantContext';

export interface ECardJobDeps {
  tenants: readonly ServerTenant[];
  mailFrom: string;
  assetsDir?: string;
  log?: (entry: Record<string, unknown>) => void;
}

/** Sends the cards due at `now`; answers how many were sent. */
export async function sendDueECards(db: Database, now: Date, deps: ECardJobDeps): Promise<number> {
  return db.transaction(async (tx) => {
    let sent = 0;
    for (const card of await claimDueECards(tx, now)) {
      await tx.query('savepoint e_card');
      try {
        const tenant = deps.tenants.find((t) => t.id === card.tenantId);
        if (!tenant) throw new Error(`tenant ${card.tenantId} is not served`);
        // A tenant that switched e-cards off sends none of its waiting cards (its subscribers can
        // no longer see or cancel them): they are set aside as failed.
        if (!isFeatureOn(tenant, 'e-card')) throw new Error('the tenant has switched e-cards off');
        await sendECard(tx, tenant, card, deps, now);
        await tx.query('release savepoint e_card');
        sent++;
      } catch (error) {
        await tx.query('rollback to savepoint e_card');
        deps.log?.({
          level: 'warn',
          msg: 'e-card failed',
          tenantId: card.tenantId,
          eCardId: card.id,
          error: String(error),
        });
        await markECardFailed(tx, card.tenantId, card.id, String(error));
      }
    }
    return sent;
  });
}

/**
 * Starts the job (every 30 s). PORTAL_E_CARD_CLOCK_OFFSET_MS moves the job's clock ahead — for the
 * demo and the end-to-end journeys, which cannot wait a day for a timed card; never set it in production.
 */
export function startECards(
  db: Database,
  deps: ECardJobDeps & { intervalMs?: number; clockOffsetMs?: number },
): () => Promise<void> {
  const offset = deps.clockOffsetMs ?? 0;
  return startPeriodicJob('e-cards', () => sendDueECards(db, new Date(Date.now() + offset), deps), {
    intervalMs: deps.intervalMs ?? 30_000,
    log: deps.log,
  });
}

export function eCardClockOffsetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.PORTAL_E_CARD_CLOCK_OFFSET_MS);
  return Number.isFinite(value) && value > 0 ? value : 0;
}
