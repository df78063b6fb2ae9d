/**
 * The OpenAPI document as the server serves it (served at `…/operator/v1/openapi.json`,
 * valid under a standard validator): without a key, with the tenant's server URL, and true to
 * the API — every operation refuses a key without the scope the document names, and real answers
 * (records, write results, the feed, an acknowledgement, an import, refusals) validate against the
 * schemas the document gives them, with their error codes among the ones it lists.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { recordEvent } from '../../../server/events/recordEvent';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import type { OperatorScope } from '../../../server/store/operatorKeyStore';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { rawGet } from '../../support/rawRequest';
import { openApiSchemas, type OpenApiSchemas } from '../../support/openApiSchemas';

type Json = Record<string, any>;

const tenant = makeServerTenant({
  id: uniqueTenantId('openapi'),
  name: 'Verlag Openapi',
  hosts: [`${uniqueTenantId('openapi-host')}.test`],
  defaultLocale: 'de-DE',
  features: [],
});
const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-openapi-'));
const SCOPES: OperatorScope[] = ['read', 'write', 'import'];
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
/** A key with every scope, and per scope a key with all the others. */
let allScopes: string;
const without = {} as Record<OperatorScope, string>;
let document: Json;
let schemas: OpenApiSchemas;

async function call(
  route: string,
  init: { key?: string; method?: string; json?: unknown; body?: string; type?: string } = {},
) {
  const headers = new Headers();
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (init.type) headers.set('content-type', init.type);
  const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1${route}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Json) : undefined,
  };
}

const resolve = (node: Json): Json =>
  node.$ref
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: Json, part: string) => at[part], document),
      )
    : node;
const componentName = (schema: Json) => (schema.$ref as string).split('/').pop()!;

/**
 * The answer is one the document describes for the operation: its status is listed, its body is
 * valid under the status's schema, and a refusal's code is among the status's examples.
 */
function expectDocumented(method: string, template: string, answer: { status: number; body?: Json }) {
  const operation = document.paths[template]?.[method];
  expect(operation, `${method} ${template} in the document`).toBeDefined();
  const response = operation.responses[String(answer.status)];
  expect(
    response,
    `${method} ${template} answers ${answer.status}: ${JSON.stringify(answer.body)}`,
  ).toBeDefined();
  const media = resolve(response).content['application/json'];
  const validate = schemas.validator(componentName(media.schema));
  expect(
    validate(answer.body),
    `${method} ${template} ${answer.status}: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
  if (answer.status >= 400) expect(Object.keys(media.examples)).toContain(answer.body!.error.code);
}

const publication = { version: 1, publication: 'TAZ', clientId: '101', description: 'Die Tageszeitung' };
const partner = { version: 1, bpNumber: '1000000001', firstName: 'Anna', lastName1: 'Berg', city: 'Köln' };
const subscription = {
  version: 1,
  id: '101000123',
  orderNumber: '4000000123',
  publication: 'TAZ',
  orderStatus: 'A',
  mixType: 'PRINT',
  validFrom: '2026-01-01',
  roles: [{ bpNumber: '1000000001', role: 'AG' }],
};

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
  });
  ({ baseUrl, close } = await listen(app));
  const now = new Date();
  allScopes = (await createOperatorKey(db, tenant.id, { name: 'all', scopes: SCOPES, now })).secret;
  for (const scope of SCOPES)
    without[scope] = (
      await createOperatorKey(db, tenant.id, {
        name: `no-${scope}`,
        scopes: SCOPES.filter((s) => s !== scope),
        now,
      })
    ).secret;
  const served = await call('/openapi.json');
  expect(served.status).toBe(200);
  document = served.body!;
  schemas = openApiSchemas(document);
});

afterAll(async () => close?.());

describe('GET /operator/v1/openapi.json', () => {
  it('is served without a key, valid OpenAPI 3.1, with the tenant as server and title', async () => {
    const served = await call('/openapi.json');
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.body!.openapi).toBe('3.1.0');
    expect(served.body!.servers[0].url).toBe(`/t/${tenant.id}/operator/v1`);
    expect(served.body!.info.title).toBe('Verlag Openapi operator API');
    const result = await new Validator().validate(served.body as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    // Only the document is public: the API itself still needs a key.
    const whoami = await call('/whoami');
    expect(whoami.status).toBe(401);
    expectDocumented('get', '/whoami', whoami);
    expect(whoami.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it("names the tenant's own host's URL when asked there", async () => {
    const byHost = await rawGet(`${baseUrl}/operator/v1/openapi.json`, { host: tenant.hosts[0] });
    expect(byHost.status).toBe(200);
    expect(JSON.parse(byHost.body.toString('utf8')).servers[0].url).toBe('/operator/v1');
  });

  it('names the scope every operation asks for: a key without it gets 403 insufficient_scope', async () => {
    let checked = 0;
    for (const [template, item] of Object.entries(document.paths as Json))
      for (const [method, operation] of Object.entries(item as Json)) {
        const [scope] = operation.security[0].apiKey as OperatorScope[];
        const route = template.replace('{key}', 'X').replace('{eventId}', randomUUID());
        if (!scope) {
          for (const key of Object.values(without))
            expect((await call(route, { key, method: method.toUpperCase() })).status).toBe(200);
          continue;
        }
        const refused = await call(route, { key: without[scope], method: method.toUpperCase() });
        expect(refused.status, `${method} ${template}`).toBe(403);
        expect(refused.body!.error).toMatchObject({ code: 'insufficient_scope', details: { scope } });
        expectDocumented(method, template, refused);
        checked++;
      }
    expect(checked).toBeGreaterThan(40);
  });

  it('describes the real answers of writes, reads, refusals and deletes', async () => {
    expectDocumented('get', '/whoami', await call('/whoami', { key: allScopes }));
    const recordSchema = (template: string) =>
      schemas.validator(
        componentName(document.paths[template].put.requestBody.content['application/json'].schema),
      );
    for (const [template, record] of [
      ['/publications/{key}', publication],
      ['/business-partners/{key}', partner],
      ['/subscriptions/{key}', subscription],
    ] as const) {
      // The record a client sends is valid under the document's schema, and the server takes it.
      expect(recordSchema(template)(structuredClone(record))).toBe(true);
      const key =
        template === '/publications/{key}'
          ? 'TAZ'
          : template === '/subscriptions/{key}'
            ? subscription.id
            : partner.bpNumber;
      const written = await call(template.replace('{key}', key), {
        key: allScopes,
        method: 'PUT',
        json: record,
      });
      expect(written.status).toBe(201);
      expectDocumented('put', template, written);
    }
    const stored = await call(`/subscriptions/${subscription.id}`, { key: allScopes });
    expect(stored.body).toMatchObject({ id: subscription.id, roles: subscription.roles });
    expectDocumented('get', '/subscriptions/{key}', stored);

    expectDocumented(
      'put',
      '/subscriptions/{key}',
      await call(`/subscriptions/${subscription.id}`, {
        key: allScopes,
        method: 'PUT',
        json: { ...subscription, version: 0 },
      }),
    );
    expectDocumented(
      'put',
      '/subscriptions/{key}',
      await call('/subscriptions/other', {
        key: allScopes,
        method: 'PUT',
        json: { ...subscription, orderNumber: 'short' },
      }),
    );
    expectDocumented(
      'put',
      '/subscriptions/{key}',
      await call('/subscriptions/101000999', {
        key: allScopes,
        method: 'PUT',
        json: { ...subscription, id: '101000999', publication: 'NOPE' },
      }),
    );
    expectDocumented('get', '/subscriptions/{key}', await call('/subscriptions/none', { key: allScopes }));
    expectDocumented(
      'delete',
      '/business-partners/{key}',
      await call(`/business-partners/${partner.bpNumber}?version=5`, {
        key: allScopes,
        method: 'DELETE',
      }),
    );
    const deleted = await call(`/subscriptions/${subscription.id}?version=5`, {
      key: allScopes,
      method: 'DELETE',
    });
    expect(deleted.body!.result).toBe('deleted');
    expectDocumented('delete', '/subscriptions/{key}', deleted);
    // A write repeated while its first run with the same Idempotency-Key still runs (idempotency.ts).
    for (const method of ['put', 'delete'])
      expect(JSON.stringify(document.paths['/subscriptions/{key}'][method].responses['409'])).toContain(
        'idempotency_key_in_use',
      );
  });

  it("describes an import of the document's own example file, and a refused one", async () => {
    const upload = document.paths['/imports/publications'].post.requestBody.content['application/x-ndjson'];
    const lineSchema = schemas.validator(componentName(upload['x-itemSchema']));
    const lines = (upload.example as string).trim().split('\n');
    for (const line of lines) expect(lineSchema(JSON.parse(line))).toBe(true);
    const imported = await call('/imports/publications', {
      key: allScopes,
      method: 'POST',
      body: upload.example,
      type: 'application/x-ndjson',
    });
    expect(imported.status).toBe(200);
    expectDocumented('post', '/imports/publications', imported);
    expectDocumented(
      'post',
      '/imports/publications',
      await call('/imports/publications', {
        key: allScopes,
        method: 'POST',
        body: '{"version":1}\n',
        type: 'application/x-ndjson',
      }),
    );
    expectDocumented(
      'post',
      '/imports/publications',
      await call('/imports/publications', {
        key: allScopes,
        method: 'POST',
        body: upload.example,
        type: 'text/plain',
      }),
    );
  });

  it('describes the change feed and an acknowledgement', async () => {
    const eventId = await db.transaction((tx) =>
      recordEvent(tx, tenant.id, 'order_attribute.changed', {
        userId: 'someone',
        subscriptionId: '4711',
        orderNumber: '4000000001',
        type: 'DELIVERY_NOTE',
        value: 'Hinterhof',
        previousValue: null,
      }),
    );
    let page: { status: number; body?: Json } | undefined;
    for (let i = 0; i < 100 && !page?.body?.changes.some((c: Json) => c.event.id === eventId); i++) {
      if (i) await new Promise((done) => setTimeout(done, 50));
      page = await call('/changes?limit=500', { key: allScopes });
    }
    expect(page!.body!.changes.map((c: Json) => c.event.id)).toContain(eventId);
    expectDocumented('get', '/changes', page!);
    expectDocumented('get', '/changes', await call('/changes?limit=0', { key: allScopes }));

    const template = '/changes/{eventId}/acknowledgement';
    const confirmed = await call(`/changes/${eventId}/acknowledgement`, {
      key: allScopes,
      method: 'POST',
      json: { status: 'confirmed' },
    });
    expect(confirmed.status).toBe(201);
    expectDocumented('post', template, confirmed);
    const again = await call(`/changes/${eventId}/acknowledgement`, {
      key: allScopes,
      method: 'POST',
      json: { status: 'confirmed' },
    });
    expect(again.status).toBe(200);
    expectDocumented('post', template, again);
    const reason = Object.fromEntries(tenant.locales.map((locale) => [locale, 'Nein']));
    const decided = await call(`/changes/${eventId}/acknowledgement`, {
      key: allScopes,
      method: 'POST',
      json: { status: 'rejected', reason },
    });
    expect(decided.body!.error.code).toBe('acknowledgement_conflict');
    expectDocumented('post', template, decided);
    expectDocumented(
      'post',
      template,
      await call(`/changes/${eventId}/acknowledgement`, {
        key: allScopes,
        method: 'POST',
        json: { status: 'rejected', reason: { 'xx-XX': 'Nein' } },
      }),
    );
    expectDocumented(
      'post',
      template,
      await call(`/changes/${randomUUID()}/acknowledgement`, {
        key: allScopes,
        method: 'POST',
        json: { status: 'confirmed' },
      }),
    );
  });
});
