/**
 * An endpoint disabled by a 410 Gone answer as an operator meets it: `portal events`
 * lists it first, `portal webhooks enable <tenant> <url>` turns it back on (and says so when the
 * endpoint was not disabled), and the next event reaches it again — against a real database
 * through DATABASE_URL and a receiver on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import type { Database } from '../../server/db/database';
import { recordEvent } from '../../server/events/recordEvent';
import { deliverWebhooks, type WebhookTenant } from '../../server/events/webhookDeliverer';
import { generateWebhookSecret } from '../../tenant/webhookSecret';
import { createTestDatabase, uniqueTenantId } from '../support/database';

let db: Database;
let url: string;
let gone = true;
const received: string[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.push(String(req.headers['webhook-id']));
    res.writeHead(gone ? 410 : 204).end();
  });
});
const tenant: WebhookTenant = { id: uniqueTenantId('cli-hooks'), webhooks: [] };
let endpoint: string;

async function portal(...args: string[]) {
  const output: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void output.push(parts.join(' ')));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    await createProgram().parseAsync(['node', 'portal', ...args]);
  } finally {
    log.mockRestore();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  return output.join('\n');
}

const record = (value: string) =>
  db.transaction((tx) =>
    recordEvent(tx, tenant.id, 'order_attribute.changed', {
      userId: 'u1',
      subscriptionId: '4711',
      orderNumber: '4000000001',
      type: 'DELIVERY_NOTE',
      value,
      previousValue: null,
    }),
  );

/** The receiver listens on 127.0.0.1, which the outbound guard lets tests (only) reach. */
const DELIVERY = { retryBaseMs: 60_000, allowPrivateAddresses: true };

beforeAll(async () => {
  ({ db, url } = await createTestDatabase());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/crm`;
  tenant.webhooks = [{ url: endpoint, secret: generateWebhookSecret() }];
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await db.close();
});

describe('an endpoint that answered 410 Gone', () => {
  it('is listed by portal events, re-enabled by portal webhooks enable, and then delivered to again', async () => {
    const first = await record('first');
    await deliverWebhooks(db, [tenant], DELIVERY);
    const skipped = await record('while disabled');
    await deliverWebhooks(db, [tenant], DELIVERY);
    expect(received).toEqual([first]);

    const lines = (await portal('events', '--tenant', tenant.id)).split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^disabled  ${tenant.id}  http://127\\.0\\.0\\.1:\\d+/crm  since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ: it answered 410 Gone to event ${first}; nothing is sent to it until \`portal webhooks enable ${tenant.id} <url>\` or a new URL in the tenant file$`,
      ),
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toContain(`(${skipped})`);
    expect(lines[3]).toMatch(
      /^ {4}failed {5}0 attempts {3}http:\/\/127\.0\.0\.1:\d+\/crm {2}last error: not sent: the endpoint answered 410 Gone and is disabled/,
    );
    expect(lines[4]).toContain(`(${first})`);
    expect(lines[5]).toMatch(
      /^ {4}failed {5}1 attempt {4}http:\/\/127\.0\.0\.1:\d+\/crm {2}last answer 410$/,
    );

    gone = false;
    expect(await portal('webhooks', 'enable', tenant.id, endpoint)).toBe(
      `enabled ${endpoint} of ${tenant.id}: events from now on are delivered to it (those failed while it was disabled are not sent again)`,
    );
    await expect(portal('webhooks', 'enable', tenant.id, endpoint)).rejects.toThrow(
      `${endpoint} is not a disabled endpoint of ${tenant.id} (it has none)`,
    );
    expect(await portal('events', '--tenant', tenant.id)).not.toMatch(/^disabled/);

    const next = await record('after');
    expect(await deliverWebhooks(db, [tenant], DELIVERY)).toMatchObject({ delivered: 1 });
    expect(received).toEqual([first, next]);
  });
});
