/**
 * Records that a subscriber opened a flow that shows offers (the retention insights'
 * "flows started" and "offers shown"): once per subscription, flow and UTC day, so reloading the
 * screen or choosing another reason does not count again. Its own short transaction after the
 * read it reports; a failure to record is logged, never shown to the subscriber.
 */
import type { Database } from '../db/database';
import type { ExperimentAssignment } from '../../engine/domain/offerExperiments';
import { utcDay } from '../../engine/domain/dates';
import { recordEvent } from '../events/recordEvent';
import { hasFlowStartSince, lockFlowStart } from '../store/insightsStore';
import { stderrLog } from '../http/requestLog';

export interface FlowStart {
  tenantId: string;
  userId: string;
  subscription: { id: string; orderNumber: string; publication: string };
  flow: 'cancellation' | 'renewal' | 'upgrade';
  reason: string | null;
  offerIds: string[];
  experiment: ExperimentAssignment | null;
}

/** Answers whether an event was written (false: the subscription had this flow today already). */
export async function recordFlowStart(db: Database, start: FlowStart, now: Date): Promise<boolean> {
  const dayStart = `${utcDay(now)}T00:00:00Z`;
  return db.transaction(async (tx) => {
    await lockFlowStart(tx, start.tenantId, start.subscription.id, start.flow);
    if (await hasFlowStartSince(tx, start.tenantId, start.subscription.id, start.flow, dayStart))
      return false;
    await recordEvent(tx, start.tenantId, 'offer_flow.started', {
      userId: start.userId,
      subscriptionId: start.subscription.id,
      orderNumber: start.subscription.orderNumber,
      publication: start.subscription.publication,
      flow: start.flow,
      reason: start.reason,
      offerIds: start.offerIds,
      experiment: start.experiment,
    });
    return true;
  });
}

/** As recordFlowStart, but a failure is only logged: counting must never break the subscriber's screen. */
export async function recordFlowStartQuietly(db: Database, start: FlowStart, now: Date): Promise<void> {
  try {
    await recordFlowStart(db, start, now);
  } catch (error) {
    stderrLog({
      level: 'error',
      msg: 'offer flow start not recorded',
      tenant: start.tenantId,
      flow: start.flow,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
