/**
 * A tenant on its own host answers its API and operator API under its `/t/<id>/` prefix too, the
 * shared host's address the operator docs give (docs/going-live.md): on `portal dev` the tenant
 * answers at the root of 127.0.0.1, and `/t/<id>/operator/v1/…` there fell to the portal's page
 * (200 text/html) instead of the API.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox } from '../../support/outbox';
import { rawGet, rawRequest } from '../../support/rawRequest';

const herald = makeServerTenant({
  id: uniqueTenantId('herald'),
  name: 'City Herald',
  hosts: ['herald.test'],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: [],
});
// A tenant of the shared host only.
const gazette = makeServerTenant({
  id: uniqueTenantId('gazette'),
  name: 'Gazette',
  hosts: [],
  defaultLocale: 'de-DE',
  locales: ['de-DE'],
  features: [],
});
const outbox = createTestOutbox('portal-prefix-outbox-');
let baseUrl: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [herald, gazette],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
  });
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

const onOwnHost = (route: string) => rawGet(`${baseUrl}${route}`, { host: 'herald.test' });

describe('a tenant on its own host', () => {
  it('answers its operator API and API under /t/<id>/ as at the root', async () => {
    for (const route of ['/operator/v1/openapi.json', `/t/${herald.id}/operator/v1/openapi.json`]) {
      const answer = await onOwnHost(route);
      expect(answer.status, route).toBe(200);
      expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
    }
    const rejected = await onOwnHost(`/t/${herald.id}/api/rejected-changes`);
    expect(rejected.status).toBe(401);
    expect(String(rejected.headers['content-type'])).toMatch(/^application\/json/);
    const key = await onOwnHost(`/t/${herald.id}/operator/v1/whoami`);
    expect(key.status).toBe(401);
  });

  it('says where the portals are when a path names none (no list at / on a production server)', async () => {
    const answer = await rawGet(`${baseUrl}/nowhere`, { host: 'elsewhere.test' });
    expect(answer.status).toBe(404);
    expect(answer.body.toString()).toBe(
      "No portal at /nowhere. A portal answers on its tenant's own host, or at /t/<tenant id>/ on this one.",
    );
  });

  it("does not answer another tenant's prefix", async () => {
    // A tenant that exists or not: the same 404, which tells no one which publishers there are.
    for (const route of [
      '/t/someone-else/operator/v1/openapi.json',
      `/t/${gazette.id}/operator/v1/openapi.json`,
    ]) {
      const other = await onOwnHost(route);
      expect([other.status, other.body.toString()], route).toEqual([
        404,
        `No portal at ${route}. A portal answers on its tenant's own host, or at /t/<tenant id>/ on this one.`,
      ]);
    }
    // Nor another tenant's pages and calls on this one's origin, which its page's scripts share:
    // only the shared host answers them.
    const json = { 'content-type': 'application/json', host: 'herald.test' };
    for (const [method, route, body] of [
      ['GET', `/t/${gazette.id}/api/session`, undefined],
      ['GET', `/t/${gazette.id}/`, undefined],
      ['GET', `/t/${gazette.id}/orders`, undefined],
      ['GET', `/t/${gazette.id}/operator/v1/whoami`, undefined],
      [
        'PUT',
        `/t/${gazette.id}/operator/v1/business-partners/0099000040`,
        '{"bpNumber":"0099000040","version":1}',
      ],
      ['POST', `/t/${gazette.id}/api/login/magic-link`, '{"email":"someone@example.org"}'],
      ['DELETE', `/t/${gazette.id}/operator/v1/business-partners/0099000040?version=2`, undefined],
    ] as const) {
      const answer = await rawRequest(`${baseUrl}${route}`, { method, headers: json, body });
      expect(answer.status, `${method} ${route}`).toBe(404);
      expect(answer.body.toString()).toMatch(/^No portal at /);
    }
    // The shared host answers them.
    const shared = await rawRequest(`${baseUrl}/t/${gazette.id}/operator/v1/whoami`, {});
    expect(shared.status).toBe(401);
  });
});
