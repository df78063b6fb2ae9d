/**
 * `portal events` (docs/going-live.md "`portal events`"): the listing's wording and the --limit check. The
 * command against a real database is tests/cli/events.int.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatEvents } from '../../cli/commands/events';
import { createProgram } from '../../cli/program';
import type { ListedEvent } from '../../server/store/accountEventStore';

const event = (overrides: Partial<ListedEvent> = {}): ListedEvent => ({
  id: '5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b',
  tenantId: 'technikwelt',
  type: 'invoice.requested',
  userId: 'u1',
  subject: { type: 'subscription', id: '4711' },
  createdAt: '2026-11-22T18:49:44.123Z',
  dispatched: true,
  deliveries: [],
  ...overrides,
});

describe('formatEvents', () => {
  it('shows time, tenant, type, subject and id, and per endpoint state, attempts and the last answer', () => {
    const text = formatEvents([
      event({
        deliveries: [
          {
            url: 'https://crm.example.com/hook',
            state: 'delivered',
            attempts: 1,
            lastStatus: 204,
            lastError: null,
            lastAttemptAt: '2026-11-22T18:49:45.000Z',
            nextAttemptAt: null,
          },
          {
            url: 'https://erp.example.com/in',
            state: 'pending',
            attempts: 3,
            lastStatus: 500,
            lastError: 'HTTP 500',
            lastAttemptAt: '2026-11-22T18:52:00.000Z',
            nextAttemptAt: '2026-11-22T18:54:00.000Z',
          },
          {
            url: 'https://old.example.com/x',
            state: 'failed',
            attempts: 30,
            lastStatus: null,
            lastError: 'ECONNREFUSED',
            lastAttemptAt: '2026-11-23T18:40:00.000Z',
            nextAttemptAt: null,
          },
        ],
      }),
    ]);
    expect(text.split('\n')).toEqual([
      '2026-11-22 18:49:44Z  technikwelt  invoice.requested  subscription 4711  (5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b)',
      '    delivered  1 attempt    https://crm.example.com/hook  last answer 204',
      '    pending    3 attempts   https://erp.example.com/in  last answer 500  next 2026-11-22 18:54:00Z',
      '    failed     30 attempts  https://old.example.com/x  last error: ECONNREFUSED',
    ]);
  });

  it('says when an event is not dispatched yet, when no endpoint wanted it, and when there are none', () => {
    expect(formatEvents([event({ dispatched: false })]).split('\n')[1]).toBe(
      '    not dispatched yet (the server hands it to the endpoints within seconds)',
    );
    expect(formatEvents([event()]).split('\n')[1]).toBe('    no webhook endpoint wanted it');
    expect(formatEvents([])).toBe('No account events.');
  });

  it('lists the endpoints disabled by a 410 Gone answer first, with how to turn them back on', () => {
    const disabled = {
      tenantId: 'technikwelt',
      url: 'https://erp.example.com/in?token=abc',
      disabledAt: '2026-11-22T18:50:02.456Z',
      status: 410,
      eventId: '0c9d6c1e-1111-4222-8333-444455556666',
    };
    expect(formatEvents([], [disabled]).split('\n')).toEqual([
      'disabled  technikwelt  https://erp.example.com/in?…  since 2026-11-22 18:50:02Z: it answered 410 Gone to event 0c9d6c1e-1111-4222-8333-444455556666; nothing is sent to it until `portal webhooks enable technikwelt <url>` or a new URL in the tenant file',
      '',
      'No account events.',
    ]);
    expect(formatEvents([event()], [disabled]).split('\n').slice(1, 3)).toEqual([
      '',
      '2026-11-22 18:49:44Z  technikwelt  invoice.requested  subscription 4711  (5b0c1f0e-8d8a-4f7e-9a51-1c2d3e4f5a6b)',
    ]);
  });
});

describe('portal events --limit', () => {
  let output: string[];
  beforeEach(() => {
    output = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (output.push(String(chunk)), true));
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuses a limit that is not a whole number from 1 to 1000, before opening any database', async () => {
    for (const limit of ['0', '1001', 'ten', '2.5']) {
      await expect(
        createProgram().parseAsync(['node', 'portal', 'events', '--limit', limit]),
      ).rejects.toMatchObject({ code: 'commander.invalidArgument' });
    }
    expect(output.join('')).toContain(
      "option '--limit <n>' argument '0' is invalid. write a whole number from 1 to 1000",
    );
  });
});
