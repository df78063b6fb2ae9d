/**
 * The outbox viewer of a test server reached through DNS (`portal serve --outbox-viewer` with
 * PORTAL_PUBLIC_URL): its sign-in links sign in whoever reads them, and such a server may hold
 * imported people. At its public name it shows a tenant's mails only to one of that tenant's
 * operator keys with the `read` scope (HTTP Basic: tenant id and key); on the machine itself, every
 * mail, as before (server/mail/outboxPage.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { createTestOutbox } from '../../support/outbox';
import { startSecurityFixture, type SecurityFixture } from './securityFixture';

const PUBLIC_NAME = 'qa.portal.test';
const mails = createTestOutbox('portal-outbox-public-');
let fixture: SecurityFixture;
let readKey: string;
let writeOnlyKey: string;
let otherTenantsKey: string;

beforeAll(async () => {
  const previous = process.env.PORTAL_PUBLIC_URL;
  process.env.PORTAL_PUBLIC_URL = `https://${PUBLIC_NAME}`;
  try {
    fixture = await startSecurityFixture({
      outboxViewerDir: mails.dir,
      mailer: mails.mailer,
    });
  } finally {
    if (previous === undefined) delete process.env.PORTAL_PUBLIC_URL;
    else process.env.PORTAL_PUBLIC_URL = previous;
  }
  const [first, second] = fixture.tenants;
  const now = new Date();
  readKey = (await createOperatorKey(fixture.db, first.id, { name: 'qa', scopes: ['read'], now })).secret;
  writeOnlyKey = (await createOperatorKey(fixture.db, first.id, { name: 'erp', scopes: ['write'], now }))
    .secret;
  otherTenantsKey = (await createOperatorKey(fixture.db, second.id, { name: 'qa', scopes: ['read'], now }))
    .secret;
  // A sign-in link for a demo login of each tenant.
  for (const tenant of fixture.tenants) {
    const email = fixture.logins.find((l) => l.tenantId === tenant.id)!.email;
    const asked = await fixture.call({
      method: 'POST',
      path: `${fixture.api(tenant)}/login/magic-link`,
      body: { email },
    });
    expect(asked.status, tenant.id).toBe(202);
  }
  // Sent, as the background sender would.
  expect(tenantsIn(await mails.mails())).toEqual(fixture.tenants.map((t) => t.id).sort());
}, 120_000);

afterAll(() => fixture?.close());

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

async function outbox(host: string, authorization?: string) {
  const answer = await fixture.call({
    method: 'GET',
    path: '/outbox',
    headers: { host, ...(authorization ? { authorization } : {}) },
  });
  return answer;
}

const tenantsIn = (entries: Array<{ tenantId: string }>) =>
  [...new Set(entries.map((e) => e.tenantId))].sort();

describe('the outbox at the public name', () => {
  it('asks for a key with a Basic challenge and shows no mail without one', async () => {
    const answer = await outbox(PUBLIC_NAME);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Basic realm="outbox"/);
    expect(answer.json.error.code).toBe('outbox_key_required');
    expect(answer.text).not.toMatch(/login\?p=/);
  });

  it("shows a tenant's mails, and only them, to one of its keys with the read scope", async () => {
    const [first, second] = fixture.tenants;
    const answer = await outbox(PUBLIC_NAME, basic(first.id, readKey));
    expect(answer.status).toBe(200);
    expect(tenantsIn(answer.json)).toEqual([first.id]);
    const others = await outbox(PUBLIC_NAME, basic(second.id, otherTenantsKey));
    expect(tenantsIn(others.json)).toEqual([second.id]);
    // In the key's audit trail, as a call of the operator API is.
    await expect
      .poll(async () =>
        fixture.db.query<{ path: string; status: number }>(
          `select u.path, u.status from operator_key_uses u join operator_keys k on k.tenant_id = u.tenant_id and k.id = u.key_id
            where u.tenant_id = $1 and k.name = 'qa'`,
          [first.id],
        ),
      )
      .toEqual([{ path: '/outbox', status: 200 }]);
  });

  it("refuses another tenant's key, a wrong key and a key without the read scope", async () => {
    const [first, second] = fixture.tenants;
    for (const authorization of [
      basic(first.id, otherTenantsKey),
      basic(second.id, readKey),
      basic(first.id, `${readKey}x`),
      basic('', readKey),
      `Bearer ${readKey}`,
    ]) {
      const answer = await outbox(PUBLIC_NAME, authorization);
      expect(answer.status, authorization).toBe(401);
      expect(answer.text, authorization).not.toMatch(/login\?p=/);
    }
    const writeOnly = await outbox(PUBLIC_NAME, basic(first.id, writeOnlyKey));
    expect(writeOnly.status).toBe(403);
    expect(writeOnly.json.error.details).toEqual({ scope: 'read' });
  });
});

describe('the outbox on the machine itself', () => {
  it('shows every mail without a key', async () => {
    const answer = await outbox(new URL(fixture.baseUrl).host);
    expect(answer.status).toBe(200);
    expect(tenantsIn(answer.json)).toEqual(fixture.tenants.map((t) => t.id).sort());
  });
});
