/**
 * `/api` answers above the threshold go out compressed as the client accepts (brotli
 * first, then gzip), with `Vary: Accept-Encoding`; small ones, and every answer to a client that
 * accepts no encoding, as they are.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { MAGIC_LINK_PURPOSE } from '../../../server/auth/authService';
import { hashToken, newSecretToken } from '../../../server/auth/tokens';
import { DYNAMIC_COMPRESSION_THRESHOLD } from '../../../server/http/compression';
import { createMailer } from '../../../server/mail/mailer';
import { seedDemoData } from '../../../server/seed';
import { insertLoginToken } from '../../../server/store/authStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { rawGet } from '../../support/rawRequest';

const tenant = makeServerTenant({
  id: uniqueTenantId('compressed'),
  name: 'Compressed',
  hosts: [],
  defaultLocale: 'de-DE',
  features: [],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
});
let api: string;
let db: Database;
let signedIn: Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenant]);
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-compressed-'));
  const { app, auth } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
  });
  const token = newSecretToken();
  await insertLoginToken(db, tenant.id, {
    tokenHash: hashToken(token),
    email: logins[0].email,
    purpose: MAGIC_LINK_PURPOSE,
    expiresAt: new Date(Date.now() + 600_000),
  });
  signedIn = { 'x-auth-token': (await auth.loginWithToken(tenant, token)).accessToken };
  let baseUrl: string;
  ({ baseUrl, close } = await listen(app));
  api = `${baseUrl}/t/${tenant.id}/api`;
});

afterAll(async () => close?.());

describe('compressed /api answers', () => {
  it('compresses the subscription list with brotli, or gzip, to the same JSON', async () => {
    const plain = await rawGet(`${api}/subscriptions`, signedIn);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(DYNAMIC_COMPRESSION_THRESHOLD);

    const brotli = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'gzip, br' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotli.headers['content-type']).toMatch(/^application\/json/);
    expect(brotli.headers['cache-control']).toBe(plain.headers['cache-control']);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );

    const gzipped = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.body).toString('utf8'))).toEqual(
      JSON.parse(plain.body.toString('utf8')),
    );
  });

  it('sends the kept list compressed, a changed list compressed anew, and other encodings as the middleware makes them', async () => {
    const listOf = (body: Buffer) =>
      JSON.parse(body.toString('utf8')) as Array<{ orderAttributes?: unknown }>;
    const first = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'br' });
    const again = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'br' });
    expect(again.headers['content-encoding']).toBe('br');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(listOf(brotliDecompressSync(again.body))).toEqual(listOf(brotliDecompressSync(first.body)));

    // A change of the tenant's subscriptions (it raises their data version, migration 015).
    await db.query(
      `update subscriptions set details = jsonb_set(details, '{orderAttributes}', '[{"type": "KOSTENSTELLE", "value": "kept-4711"}]')
        where tenant_id = $1`,
      [tenant.id],
    );
    const changed = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'br' });
    const plain = await rawGet(`${api}/subscriptions`, signedIn);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(brotliDecompressSync(changed.body).toString('utf8')).toContain('kept-4711');
    expect(listOf(brotliDecompressSync(changed.body))).toEqual(listOf(plain.body));
    const gzipped = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'gzip' });
    expect(listOf(gunzipSync(gzipped.body))).toEqual(listOf(plain.body));

    const deflated = await rawGet(`${api}/subscriptions`, { ...signedIn, 'accept-encoding': 'deflate' });
    expect(deflated.headers['content-encoding']).toBe('deflate');
    expect(listOf(inflateSync(deflated.body))).toEqual(listOf(plain.body));

    const unchanged = await rawGet(`${api}/subscriptions`, {
      ...signedIn,
      'accept-encoding': 'br',
      'if-none-match': String(changed.headers.etag),
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
  });

  it('answers a client that accepts no encoding uncompressed', async () => {
    for (const accepted of ['identity', 'br;q=0, gzip;q=0, deflate;q=0', undefined]) {
      const answer = await rawGet(`${api}/subscriptions`, {
        ...signedIn,
        ...(accepted ? { 'accept-encoding': accepted } : {}),
      });
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toMatch(/Accept-Encoding/);
      expect(Array.isArray(JSON.parse(answer.body.toString('utf8')))).toBe(true);
    }
  });

  it('sends an answer below the threshold as it is', async () => {
    const answer = await rawGet(`${api}/subscriptions`, { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(401);
    expect(answer.body.length).toBeLessThan(DYNAMIC_COMPRESSION_THRESHOLD);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8')).error.code).toBeDefined();
  });
});
