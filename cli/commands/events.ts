import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { ListedEvent } from '../../server/store/accountEventStore';
import { redactedUrl } from '../../server/events/webhookAddress';

/** Most events one call lists. */
export const EVENTS_LIMIT_MAX = 1000;

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > EVENTS_LIMIT_MAX)
    throw new InvalidArgumentError(`write a whole number from 1 to ${EVENTS_LIMIT_MAX}`);
  return limit;
}

const time = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z` : '');

/**
 * The listing of `portal events`: per event its time, tenant, type, subject and id, and below it
 * one line per endpoint with the delivery state, attempts and the last answer.
 */
export function formatEvents(events: readonly ListedEvent[]): string {
  if (events.length === 0) return 'No account events.';
  const lines: string[] = [];
  for (const event of events) {
    lines.push(
      `${time(event.createdAt)}  ${event.tenantId}  ${event.type}  ${event.subject.type} ${event.subject.id}  (${event.id})`,
    );
    if (!event.dispatched)
      lines.push('    not dispatched yet (the server hands it to the endpoints within seconds)');
    else if (event.deliveries.length === 0) lines.push('    no webhook endpoint wanted it');
    for (const d of event.deliveries) {
      const attempts = `${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}`;
      const last =
        d.lastStatus !== null
          ? `last answer ${d.lastStatus}`
          : d.lastError
            ? `last error: ${d.lastError}`
            : '';
      const next = d.state === 'pending' && d.nextAttemptAt ? `next ${time(d.nextAttemptAt)}` : '';
      lines.push(
        `    ${d.state.padEnd(9)}  ${attempts.padEnd(11)}  ${redactedUrl(d.url)}${[last, next]
          .filter(Boolean)
          .map((part) => `  ${part}`)
          .join('')}`,
      );
    }
  }
  return lines.join('\n');
}

/** `portal events [--tenant <id>] [--limit N] [--json]`: account events and their webhook deliveries (issue 8). */
export function registerEvents(program: Command): void {
  program
    .command('events')
    .description(
      'list account events, newest first, with the delivery state per webhook endpoint (DATABASE_URL, or the embedded PostgreSQL under data/)',
    )
    .option('--tenant <id>', 'only the events of this tenant')
    .option('--limit <n>', 'how many events (default: 20)', parseLimit, 20)
    .option('--json', 'print the events as JSON for tools', false)
    .action(async (options: { tenant?: string; limit: number; json: boolean }) => {
      const { withDatabase } = await import('./db');
      const { listAccountEvents } = await import('../../server/store/accountEventStore');
      await withDatabase(async (db) => {
        let events: ListedEvent[];
        try {
          events = await listAccountEvents(db, { tenantId: options.tenant, limit: options.limit });
        } catch (error) {
          // 42P01: the table does not exist — a database the server has not migrated yet.
          if ((error as { code?: string }).code === '42P01')
            throw new Error(
              'this database has no account events yet: run `portal db migrate` (or start the server once)',
            );
          throw error;
        }
        console.log(options.json ? JSON.stringify(events, null, 2) : formatEvents(events));
      });
    });
}
