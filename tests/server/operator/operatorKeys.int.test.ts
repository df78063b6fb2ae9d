/**
 * The operator API's keys (docs/going-live.md "1. An API key"): made by `portal keys create`'s function,
 * shown once, stored hashed; a call without a valid key of the URL's tenant is 401, a key without
 * the route's scope 403, failures are rate-limited per client, and every use is logged without the key.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { createKey, formatKeys, listKeys, parseScopes, revokeKey } from '../../../cli/commands/keys';
import { listOperatorKeyUses } from '../../../server/store/operatorKeyStore';
import { authenticateOperator, requireScope } from '../../../server/operator/keys/operatorAuth';
import { errorMiddleware } from '../../../server/http/errors';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { rawGet } from '../../support/rawRequest';
import { makeServerTenant } from '../../support/builders';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';

const tenantOf = (id: string) =>
  makeServerTenant({ id, name: `Verlag ${id}`, hosts: [`${id}.test`], defaultLocale: 'de-DE', features: [] });
const acme = tenantOf(uniqueTenantId('keys-acme'));
const other = tenantOf(uniqueTenantId('keys-other'));
const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-keys-outbox-'));
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;

const context = () => ({ db, tenantIds: [acme.id, other.id] });

async function call(tenantId: string, route: string, key?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (key) headers.set('authorization', `Bearer ${key}`);
  const response = await fetch(`${baseUrl}/t/${tenantId}/operator/v1${route}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** The use log is written once the answer is out: wait for it. */
async function usesOf(tenantId: string, keyId: string, count: number) {
  for (let i = 0; i < 50; i++) {
    const uses = await listOperatorKeyUses(db, tenantId, { keyId });
    if (uses.length >= count) return uses;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return listOperatorKeyUses(db, tenantId, { keyId });
}

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [acme, other],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('portal keys create / list / revoke', () => {
  it('shows a new key once, in the pk_<tenant>_ format, and keeps only its hash', async () => {
    const { key, secret, text } = await createKey(context(), acme.id, { scopes: ['read'], name: 'ERP' });
    expect(secret).toMatch(new RegExp(`^pk_${acme.id}_[A-Za-z0-9_-]{43}$`));
    expect(text).toContain(secret);
    expect(key.prefix).toBe(secret.slice(0, `pk_${acme.id}_`.length + 8));
    const stored = await db.query<Record<string, unknown>>(`select * from operator_keys where id = $1`, [
      key.id,
    ]);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(`pk_${acme.id}_`.length));
    const listing = formatKeys(acme.id, await listKeys(context(), acme.id));
    expect(listing).toContain(key.prefix);
    expect(listing).toContain('ERP');
    expect(listing).not.toContain(secret);
  });

  it('refuses an unknown tenant and unknown scopes, naming the fix', async () => {
    await expect(createKey(context(), 'nope', { scopes: ['read'] })).rejects.toThrow(
      /no valid tenant "nope"/,
    );
    expect(() => parseScopes('read,delete')).toThrow(
      /unknown scope "delete": write one or more of read, write, import/,
    );
    expect(parseScopes('read, write,read')).toEqual(['read', 'write']);
  });

  it('revokes by prefix, and says so when revoked again', async () => {
    const { key, secret } = await createKey(context(), acme.id, { scopes: ['read'] });
    expect((await call(acme.id, '/whoami', secret)).status).toBe(200);
    const revoked = await revokeKey(context(), acme.id, key.prefix);
    expect(revoked.text).toContain(`Revoked API key ${key.prefix}`);
    expect(revoked.key.revokedAt).not.toBeNull();
    const answer = await call(acme.id, '/whoami', secret);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('invalid_api_key');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await revokeKey(context(), acme.id, key.id)).text).toContain('was already revoked');
    await expect(revokeKey(context(), acme.id, 'pk_nothing')).rejects.toThrow(/has no API key/);
  });

  it('revokes nothing with a prefix that fits several keys', async () => {
    await createKey(context(), other.id, { scopes: ['read'] });
    await createKey(context(), other.id, { scopes: ['read'] });
    await expect(revokeKey(context(), other.id, `pk_${other.id}_`)).rejects.toThrow(/fits \d+ keys/);
    expect((await listKeys(context(), other.id)).every((key) => key.revokedAt === null)).toBe(true);
  });
});

describe('authentication of the operator API', () => {
  it('answers whoami with the key prefix and scopes, and logs the use without the key or the query', async () => {
    const { key, secret } = await createKey(context(), acme.id, {
      scopes: ['read', 'write'],
      name: 'whoami',
    });
    const answer = await call(acme.id, `/whoami?token=${secret}`, secret);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      tenant: acme.id,
      key: { id: key.id, prefix: key.prefix, name: 'whoami', scopes: ['read', 'write'] },
    });
    expect(answer.headers.get('cache-control')).toContain('no-store');
    expect((await call(acme.id, '/no-such-thing', secret)).status).toBe(404);
    // A licence's record key names its user's e-mail address: not in the audit trail.
    expect(
      (await call(acme.id, '/licences/3024279000001~4279000001~julia.koch@example.com', secret)).status,
    ).toBe(404);
    const uses = await usesOf(acme.id, key.id, 3);
    expect(uses.map((use) => [use.method, use.path, use.status])).toEqual([
      ['GET', `/t/${acme.id}/operator/v1/licences/3024279000001~4279000001~…`, 404],
      ['GET', `/t/${acme.id}/operator/v1/no-such-thing`, 404],
      ['GET', `/t/${acme.id}/operator/v1/whoami`, 200],
    ]);
    expect(uses[0].client).toMatch(/127\.0\.0\.1/);
    const logged = await db.query(`select * from operator_key_uses where key_id = $1`, [key.id]);
    expect(JSON.stringify(logged)).not.toContain(secret.slice(`pk_${acme.id}_`.length));
    const [listed] = (await listKeys(context(), acme.id)).filter((k) => k.id === key.id);
    expect(listed.lastUsedAt).not.toBeNull();
  });

  it('refuses a missing, malformed or unknown key with 401 invalid_api_key and WWW-Authenticate', async () => {
    for (const authorization of [undefined, 'Basic abc', `Bearer pk_${acme.id}_${'x'.repeat(43)}`]) {
      const answer = await call(acme.id, '/whoami', undefined, {
        headers: authorization ? { authorization } : {},
      });
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('invalid_api_key');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it("refuses another tenant's key, on the prefix and on the tenant's host alike", async () => {
    const { secret } = await createKey(context(), other.id, { scopes: ['read'] });
    expect((await call(other.id, '/whoami', secret)).status).toBe(200);
    const answer = await call(acme.id, '/whoami', secret);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('invalid_api_key');
    const byHost = (host: string) =>
      rawGet(`${baseUrl}/operator/v1/whoami`, { host, authorization: `Bearer ${secret}` });
    expect((await byHost(`${other.id}.test`)).status).toBe(200);
    expect((await byHost(`${acme.id}.test`)).status).toBe(401);
  });
});

describe('scopes and the failure limit', () => {
  it('answers 403 insufficient_scope naming the scope a route needs', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.locals.tenantContext = { tenant: acme, basePath: '/' };
      next();
    });
    app.use(authenticateOperator({ db, log: () => undefined, now: () => new Date() }));
    app.post('/import', requireScope('import'), (_req, res) => void res.json({ ok: true }));
    app.use(errorMiddleware(() => undefined));
    const server = await listen(app);
    try {
      const reader = await createKey(context(), acme.id, { scopes: ['read', 'write'] });
      const importer = await createKey(context(), acme.id, { scopes: ['import'] });
      const refused = await fetch(`${server.baseUrl}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${reader.secret}` },
      });
      expect(refused.status).toBe(403);
      const body = await refused.json();
      expect(body.error).toMatchObject({ code: 'insufficient_scope', details: { scope: 'import' } });
      expect(body.error.message).toContain('"import"');
      const allowed = await fetch(`${server.baseUrl}/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${importer.secret}` },
      });
      expect(allowed.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  /** An app with only the key check, its clients told apart by X-Forwarded-For (each test one of its own). */
  async function limitedServer(tenants: ServerTenant[], limit: number) {
    const app = express();
    app.set('trust proxy', true);
    app.use('/:tenant', (req, res, next) => {
      res.locals.tenantContext = { tenant: tenants.find((t) => t.id === req.params.tenant)!, basePath: '/' };
      next();
    });
    app.use(
      '/:tenant',
      authenticateOperator(
        { db, log: () => undefined, now: () => new Date() },
        { windowSeconds: 900, limit },
      ),
    );
    app.get('/:tenant/whoami', (_req, res) => void res.json({ ok: true }));
    app.use(errorMiddleware(() => undefined));
    return listen(app);
  }

  it('answers 429 with Retry-After to wrong keys once a client has failed too often, and still lets a valid key through', async () => {
    const limited = tenantOf(uniqueTenantId('keys-limited'));
    const server = await limitedServer([limited], 3);
    try {
      const { secret } = await createKey({ db, tenantIds: [limited.id] }, limited.id, { scopes: ['read'] });
      const get = (key: string) =>
        fetch(`${server.baseUrl}/${limited.id}/whoami`, {
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '198.51.100.7' },
        });
      expect((await get(secret)).status).toBe(200);
      for (let i = 0; i < 3; i++) expect((await get('wrong')).status).toBe(401);
      const refused = await get('wrong');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Whoever shares the order system's address cannot lock it out with wrong keys.
      expect((await get(secret)).status).toBe(200);
      expect((await get('wrong')).status).toBe(429);
    } finally {
      await server.close();
    }
  });

  it('counts 120 parallel guesses before answering them, across tenants: never more 401s than the limit', async () => {
    const first = tenantOf(uniqueTenantId('keys-guess-a'));
    const second = tenantOf(uniqueTenantId('keys-guess-b'));
    const server = await limitedServer([first, second], 30);
    try {
      const { secret } = await createKey({ db, tenantIds: [second.id] }, second.id, { scopes: ['read'] });
      const guess = (tenant: ServerTenant, key: string) =>
        fetch(`${server.baseUrl}/${tenant.id}/whoami`, {
          headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': '203.0.113.7' },
        }).then((r) => r.status);
      // A valid key's calls write nothing to the count: a burst of good calls is never limited.
      const good = await Promise.all(Array.from({ length: 60 }, () => guess(second, secret)));
      expect(good.every((status) => status === 200)).toBe(true);
      const random = () => `pk_${first.id}_${randomBytes(32).toString('base64url')}`;
      const statuses = await Promise.all(Array.from({ length: 120 }, () => guess(first, random())));
      expect(statuses.filter((s) => s === 401)).toHaveLength(30);
      expect(statuses.filter((s) => s === 429)).toHaveLength(90);
      // Another tenant of the same server is no fresh budget for wrong keys; its valid key passes.
      expect(await guess(second, random())).toBe(429);
      expect(await guess(second, secret)).toBe(200);
    } finally {
      await server.close();
    }
  });
});
