/**
 * `portal events` against a real database (docs/going-live.md "`portal events`"): events of one tenant with
 * their delivery state per endpoint, as text and as JSON, through DATABASE_URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import type { Database } from '../../server/db/database';
import { recordEvent } from '../../server/events/recordEvent';
import { deliverWebhooks } from '../../server/events/webhookDeliverer';
import { generateWebhookSecret } from '../../tenant/webhookSecret';
import { createTestDatabase, uniqueTenantId } from '../support/database';

let db: Database;
let url: string;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(req.url === '/ok' ? 200 : 503).end());
});
const SECRET = generateWebhookSecret();
const tenant = { id: uniqueTenantId('cli-events'), webhooks: [] as Array<{ url: string; secret: string }> };
const other = uniqueTenantId('cli-other');
let linked: string;
let note: string;

async function portal(...args: string[]) {
  const output: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...parts) => void output.push(parts.join(' ')));
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    await createProgram().parseAsync(['node', 'portal', 'events', ...args]);
  } finally {
    log.mockRestore();
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  return output.join('\n');
}

/** The receiver listens on 127.0.0.1, which the outbound guard lets tests (only) reach. */
const DELIVERY = { retryBaseMs: 60_000, allowPrivateAddresses: true };

beforeAll(async () => {
  ({ db, url } = await createTestDatabase());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  tenant.webhooks = [
    { url: `${base}/ok`, secret: SECRET },
    { url: `${base}/down`, secret: SECRET },
  ];
  linked = await db.transaction((tx) =>
    recordEvent(tx, tenant.id, 'subscription.linked', {
      userId: 'u1',
      bpNumber: '1000001',
      subscriptionId: '4711',
      method: 'order-number',
      emailStored: null,
    }),
  );
  note = await db.transaction((tx) =>
    recordEvent(tx, tenant.id, 'order_attribute.changed', {
      userId: 'u1',
      subscriptionId: '4711',
      orderNumber: '4000000001',
      type: 'DELIVERY_NOTE',
      value: 'x',
      previousValue: null,
    }),
  );
  await db.transaction((tx) =>
    recordEvent(tx, other, 'account.created', {
      userId: 'u2',
      email: 'a@b.example',
      source: 'registration',
      bpNumbers: [],
    }),
  );
  await deliverWebhooks(db, [tenant], DELIVERY);
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await db.close();
});

describe('portal events', () => {
  it("lists the tenant's events newest first with the delivery state per endpoint", async () => {
    const lines = (await portal('--tenant', tenant.id)).split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ  ${tenant.id}  order_attribute\\.changed  subscription 4711  \\(${note}\\)$`,
      ),
    );
    expect(lines[1]).toMatch(
      /^ {4}pending {4}1 attempt {4}http:\/\/127\.0\.0\.1:\d+\/down {2}last answer 503 {2}next /,
    );
    expect(lines[2]).toMatch(
      /^ {4}delivered {2}1 attempt {4}http:\/\/127\.0\.0\.1:\d+\/ok {2}last answer 200$/,
    );
    expect(lines[3]).toContain(`subscription.linked  subscription 4711  (${linked})`);
    expect(lines.join('\n')).not.toContain(other);
  });

  it('prints JSON with --json and honours --limit', async () => {
    const events = JSON.parse(await portal('--tenant', tenant.id, '--limit', '1', '--json'));
    expect(events).toEqual([
      expect.objectContaining({
        id: note,
        tenantId: tenant.id,
        type: 'order_attribute.changed',
        subject: { type: 'subscription', id: '4711' },
        dispatched: true,
        deliveries: [
          expect.objectContaining({
            state: 'pending',
            attempts: 1,
            lastStatus: 503,
            lastError: 'HTTP 503',
            nextAttemptAt: expect.any(String),
          }),
          expect.objectContaining({ state: 'delivered', attempts: 1, lastStatus: 200, nextAttemptAt: null }),
        ],
      }),
    ]);
  });

  it('says a tenant is unknown that has neither a tenant file nor events', async () => {
    await expect(portal('--tenant', 'no-such-tenant')).rejects.toThrow(
      /unknown tenant "no-such-tenant".*Known: .*stadtkurier/,
    );
    // A tenant with a file and no events is simply one without events.
    expect(await portal('--tenant', 'stadtkurier', '--limit', '1', '--json')).toMatch(/^\[/);
  });

  it('lists every tenant without --tenant', async () => {
    const text = await portal();
    expect(text).toContain(`${other}  account.created  account u2`);
    expect(text).toContain(tenant.id);
  });
});
