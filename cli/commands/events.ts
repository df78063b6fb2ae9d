import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { DisabledEndpoint, ListedEvent } from '../../server/store/accountEventStore';
import { redactedUrl } from '../../server/events/webhookAddress';
import { unknownTenant } from '../paths';

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
 * Endpoints disabled by a 410 Gone answer, above the events: each with its tenant, when,
 * and the command that turns it back on, so an operator who wonders why a receiver gets nothing
 * sees it first.
 */
function formatDisabled(disabled: readonly DisabledEndpoint[]): string[] {
  return disabled.map(
    (endpoint) =>
      `disabled  ${endpoint.tenantId}  ${redactedUrl(endpoint.url)}  since ${time(endpoint.disabledAt)}: it answered ${endpoint.status} Gone to event ${endpoint.eventId}; nothing is sent to it until \`portal webhooks enable ${endpoint.tenantId} <url>\` or a new URL in the tenant file`,
  );
}

/**
 * The listing of `portal events`: the disabled endpoints, then per event its time, tenant, type,
 * subject and id, and below it one line per endpoint with the delivery state, attempts and the
 * last answer.
 */
export function formatEvents(
  events: readonly ListedEvent[],
  disabled: readonly DisabledEndpoint[] = [],
): string {
  const lines: string[] = formatDisabled(disabled);
  if (lines.length > 0) lines.push('');
  if (events.length === 0) return [...lines, 'No account events.'].join('\n');
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

/** `portal events [--tenant <id>] [--limit N] [--json]`: account events and their webhook deliveries. */
export function registerEvents(program: Command): void {
  program
    .command('events')
    .description(
      'list the webhook endpoints disabled by a 410 Gone answer, then account events, newest first, with the delivery state per endpoint (DATABASE_URL, or the embedded PostgreSQL under data/)',
    )
    .option('--tenant <id>', 'only the events of this tenant')
    .option('--limit <n>', 'how many events', parseLimit, 20)
    .option('--json', 'print the events as JSON for tools', false)
    .action(async (options: { tenant?: string; limit: number; json: boolean }) => {
      const { withDatabase } = await import('./db');
      const { listAccountEvents, listDisabledEndpoints } =
        await import('../../server/store/accountEventStore');
      await withDatabase(async (db) => {
        let events: ListedEvent[];
        let disabled: DisabledEndpoint[];
        try {
          events = await listAccountEvents(db, { tenantId: options.tenant, limit: options.limit });
          disabled = options.json ? [] : await listDisabledEndpoints(db, { tenantId: options.tenant });
        } catch (error) {
          // 42P01: the table does not exist — a database the server has not migrated yet.
          if ((error as { code?: string }).code === '42P01')
            throw new Error(
              'this database has no account events yet: run `portal db migrate` (or start the server once)',
            );
          throw error;
        }
        // A mistyped tenant would read as a tenant without events: said as what it is. A tenant
        // whose file is gone keeps its events, so only a tenant with neither is unknown.
        const unknown =
          options.tenant && events.length === 0
            ? unknownTenant(options.tenant, ' and no events of it')
            : null;
        if (unknown) throw new Error(unknown);
        // --json stays the list of events tools read; a disabled endpoint shows there in the
        // lastError of its deliveries.
        console.log(options.json ? JSON.stringify(events, null, 2) : formatEvents(events, disabled));
      });
    });
}
