/**
 * The operator API (docs/going-live.md "Going live with your order system") in the security suite: its routes
 * are read from the app's router stack like the subscribers' API (apiRouteList.ts), so a route
 * added to an operator part is attacked the moment it exists. Each one, called without a key, with
 * a made-up key and with another tenant's valid key, answers 401 `invalid_api_key` and changes no
 * row; only the OpenAPI document answers without a key (it holds no tenant's data).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../../server/http/trustProxy';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { operatorRoutes, type ApiRoute } from './apiRouteList';
import { rowCounts, startSecurityFixture, type Call, type SecurityFixture } from './securityFixture';

let f: SecurityFixture;
let routes: ApiRoute[];
const secrets: Record<string, string> = {};

beforeAll(async () => {
  // Every attempt from its own client address (through a trusted proxy), so the per-client limit
  // of failed keys (429) does not stand in for the 401 each one is owed.
  f = await startSecurityFixture({ trustProxy: parseTrustProxy('loopback') });
  for (const tenant of f.tenants) {
    const { secret } = await createOperatorKey(f.db, tenant.id, {
      name: 'security suite',
      scopes: ['read', 'write', 'import'],
      now: f.clock.now,
    });
    secrets[tenant.id] = secret;
  }
  routes = operatorRoutes(f.app);
}, 120_000);

afterAll(async () => {
  await f?.close();
});

let client = 0;
function operatorCall(route: ApiRoute, tenantId: string, key: string | undefined): Call {
  client += 1;
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
    name === 'entity' ? 'business-partners' : '7700000001',
  );
  return {
    method: route.method,
    path: `/t/${tenantId}/operator/v1${path}`,
    xsrf: false,
    body:
      route.method === 'GET' || route.method === 'DELETE'
        ? undefined
        : { version: 1, bpNumber: '7700000001' },
    headers: {
      'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
  };
}

describe('the operator API', () => {
  it('lists its routes from the app', () => {
    const listed = routes.map((r) => `${r.method} ${r.path}`);
    expect(listed).toContain('GET /openapi.json');
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.some((r) => r.startsWith('PUT /:entity'))).toBe(true);
  });

  it("answers a tenant's own key", async () => {
    const [tenant] = f.tenants;
    const whoami = routes.find((r) => r.method === 'GET' && r.path === '/whoami');
    expect(whoami, 'GET /whoami').toBeDefined();
    expect((await f.call(operatorCall(whoami!, tenant.id, secrets[tenant.id]))).status).toBe(200);
  });

  it('answers no route without a key, with a made-up key, or with the key of another tenant', async () => {
    const [tenant, other] = f.tenants;
    const before = await rowCounts(f.db);
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.path !== '/openapi.json')) {
      for (const [label, key] of [
        ['no key', undefined],
        ['made-up key', `pk_${tenant.id}_${'x'.repeat(43)}`],
        ["the other tenant's key", secrets[other.id]],
      ] as const) {
        const answer = await f.call(operatorCall(route, tenant.id, key));
        if (answer.status !== 401 || answer.json?.error?.code !== 'invalid_api_key')
          failures.push(
            `${route.method} ${route.path} (${label}): ${answer.status} ${answer.text.slice(0, 160)}`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(await rowCounts(f.db)).toEqual(before);
  });
});
