import type { Database } from './database';
import { deleteExpiredRows } from '../store/housekeepingStore';

export { deleteExpiredRows };

/**
 * The hourly clean-up of expired and spent rows and of personal data past its retention
 * (server/store/housekeepingStore.ts), at start and then every hour in every instance.
 */
export function startHousekeeping(db: Database, log: (entry: Record<string, unknown>) => void): () => void {
  const run = () =>
    deleteExpiredRows(db, new Date()).catch((error) =>
      log({ level: 'warn', msg: 'housekeeping failed', error: String(error) }),
    );
  void run();
  const timer = setInterval(run, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
