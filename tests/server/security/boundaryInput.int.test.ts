/**
 * Strings the database refuses (NUL, lone surrogates), absurd lengths and ids
 * of the wrong shape answered 500 once their query ran. Now the boundary check
 * (server/http/inputGuard.ts) answers 400 `validation_failed` naming the field, before any route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rowCounts,
  startSecurityFixture,
  type Answer,
  type Party,
  type SecurityFixture,
} from './securityFixture';

let f: SecurityFixture;
let user: Party;
let subscriptionId: string;

beforeAll(async () => {
  f = await startSecurityFixture();
  const [tenant] = f.tenants;
  user = await f.session(tenant, f.logins.find((l) => l.tenantId === tenant.id)!.email);
  subscriptionId = (
    await f.call({ method: 'GET', path: `${f.api(tenant)}/subscriptions`, token: user.token })
  ).json[0].id;
});

afterAll(async () => f?.close());

function expectNamed(answer: Answer, field: string): void {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.json.error.code).toBe('validation_failed');
  expect(answer.json.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

const api = (path: string) => `${f.api(f.tenants[0])}${path}`;

describe('path parameters', () => {
  it('refuses a NUL byte in a subscription id with 400 naming params/id', async () => {
    expectNamed(
      await f.call({ method: 'GET', path: api('/subscriptions/91%0047'), token: user.token }),
      'params/id',
    );
  });

  it('refuses ids of the wrong shape, too long or not UTF-8', async () => {
    expectNamed(
      await f.call({ method: 'GET', path: api("/subscriptions/1'%20or%20'1'='1"), token: user.token }),
      'params/id',
    );
    expectNamed(
      await f.call({
        method: 'GET',
        path: api(`/subscriptions/${'9'.repeat(500)}/payment-history`),
        token: user.token,
      }),
      'params/id',
    );
    expectNamed(
      await f.call({
        method: 'GET',
        path: api(`/subscriptions/${subscriptionId}/invoices/P%00X/download`),
        token: user.token,
      }),
      'params/paymentId',
    );
    expectNamed(
      await f.call({ method: 'GET', path: api('/subscriptions/%ED%A0%80'), token: user.token }),
      'params',
    );
  });

  it('answers an asset path that is not UTF-8 with the same JSON refusal', async () => {
    const site = f.api(f.tenants[0]).replace(/\/api$/, '');
    expectNamed(await f.call({ method: 'GET', path: `${site}/assets/%ED%A0%80.js` }), 'path');
  });

  it('answers an asset path that climbs out of its folder as a missing file, naming no path', async () => {
    const site = f.api(f.tenants[0]).replace(/\/api$/, '');
    const answer = await f.call({ method: 'GET', path: `${site}/assets/..%2f..%2f..%2fpackage.json` });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.json.error).toEqual({ code: 'not_found', message: 'There is no such file.' });
  });

  it('checks the parameters of anonymous routes too', async () => {
    expectNamed(
      await f.call({ method: 'GET', path: api('/issue-calendar/publications/10%001/TWM/upcoming-issues') }),
      'params/clientId',
    );
  });
});

describe('query values', () => {
  it('refuses a NUL byte and an absurd length in the query, naming the parameter', async () => {
    expectNamed(
      await f.call({
        method: 'POST',
        path: api(`/subscriptions/${subscriptionId}/invoices/request?invoiceNumber=R1%002`),
        token: user.token,
      }),
      'query/invoiceNumber',
    );
    expectNamed(
      await f.call({
        method: 'GET',
        path: api(`/subscriptions/${subscriptionId}/payment-history?page=${'1'.repeat(3000)}`),
        token: user.token,
      }),
      'query/page',
    );
  });

  it('refuses a NUL byte in the returnTo of the sign-on start instead of storing it', async () => {
    const answer = await f.call({
      method: 'GET',
      path: `/t/${f.tenants[0].id}/sso/authorize?returnTo=/orders%00x`,
    });
    expectNamed(answer, 'query/returnTo');
  });
});

describe('bodies', () => {
  it('refuses a lone surrogate in a contact message and a NUL in an uploaded file name, and stores nothing', async () => {
    const before = await rowCounts(f.db);
    const surrogate = await f.call({
      method: 'POST',
      path: api('/contact'),
      token: user.token,
      body: { activity: 'LIEFERUNG', subscriptionId, message: 'Guten Tag \uD83D' },
    });
    expectNamed(surrogate, 'body/message');
    const file = await f.call({
      method: 'POST',
      path: api('/contact'),
      token: user.token,
      body: {
        activity: 'LIEFERUNG',
        subscriptionId,
        message: 'Foto anbei',
        image: { filename: 'foto\u0000.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      },
    });
    expectNamed(file, 'body/image/filename');
    expect(await rowCounts(f.db)).toEqual(before);
  });

  it('refuses a NUL in a partial login name and in an order attribute value', async () => {
    expectNamed(
      await f.call({
        method: 'POST',
        path: api('/login/order-number'),
        body: { orderNumber: '12345678', lastName: 'M\u0000ller' },
      }),
      'body/lastName',
    );
    expectNamed(
      await f.call({
        method: 'POST',
        path: api(`/subscriptions/${subscriptionId}/attributes`),
        token: user.token,
        body: { type: 'DELIVERY_NOTE', value: 'x\u0000' },
      }),
      'body/value',
    );
  });

  it('refuses __proto__ keys and deep nesting with 400, never 5xx, and leaves Object.prototype alone', async () => {
    const proto = await f.call({
      method: 'POST',
      path: api('/login/magic-link'),
      body: '{"__proto__":{"polluted":true},"email":"anna@example.org"}',
    });
    expectNamed(proto, 'body/__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const deep = await f.call({
      method: 'POST',
      path: api('/login/magic-link'),
      body: `{"email":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    });
    expect(deep.status).toBe(400);
    expect(deep.json.error.code).toBe('validation_failed');
  });
});
