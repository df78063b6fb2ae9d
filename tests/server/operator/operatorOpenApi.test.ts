/**
 * The operator API's OpenAPI 3.1 document (generated from `schemas/api`, valid under a
 * standard validator in the test suite): valid for @seriousme/openapi-schema-validator, every
 * component a strict JSON Schema 2020-12, every route of every part described (and nothing
 * described that no route answers), and the records' schemas judging like the server's validator.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { OPERATOR_OPERATIONS, OPERATOR_PARTS } from '../../../server/operator/operatorParts';
import type { OperatorApiDeps } from '../../../server/operator/operatorApi';
import { SchemaComponents, operatorOpenApi } from '../../../server/operator/openapi/operatorOpenApi';
import { ORDER_SYSTEM_ENTITIES } from '../../../server/operator/entities/orderSystemEntities';
import { readRecord } from '../../../server/operator/entities/orderSystemRecords';
import { openApiSchemas } from '../../support/openApiSchemas';

type Json = Record<string, any>;

const document = operatorOpenApi(OPERATOR_OPERATIONS, {
  tenantName: 'Verlag Acme',
  serverUrl: '/t/acme/operator/v1',
}) as Json;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `(method, path)` of every operation in the document. */
function documentedOperations(doc: Json): Array<{ method: string; path: string }> {
  return Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    METHODS.filter((m) => (item as Json)[m]).map((method) => ({ method, path: p })),
  );
}

/**
 * The routes of the operator API's parts, in the order they answer: each part's Express router
 * made with inert dependencies (a factory only builds its router) and its stack read.
 */
function expressRoutes(): Array<{ method: string; path: string }> {
  const deps = { db: {}, log: () => undefined, now: () => new Date(), mailer: {}, mailFrom: '' };
  return OPERATOR_PARTS.flatMap((part) => {
    // Express's types leave out the route's `methods`, which the router package keeps.
    const { stack } = part(deps as unknown as OperatorApiDeps) as unknown as {
      stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
    };
    return stack.flatMap((layer) =>
      layer.route
        ? Object.keys(layer.route.methods)
            .filter((m) => m !== '_all')
            .map((method) => ({ method, path: layer.route!.path }))
        : [],
    );
  });
}

/** Does the Express path `/:entity/:key` answer the document's `/subscriptions/{key}`? */
function answers(expressPath: string, documentPath: string): boolean {
  const route = expressPath.split('/');
  const doc = documentPath.split('/');
  return (
    route.length === doc.length &&
    route.every((segment, i) =>
      segment.startsWith(':')
        ? doc[i] === `{${segment.slice(1)}}` || !doc[i].startsWith('{')
        : segment === doc[i],
    )
  );
}

describe('the operator API OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for a standard validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.servers).toEqual([{ url: '/t/acme/operator/v1', description: expect.any(String) }]);
    expect(document.info.version).toMatch(/^1\.\d+\.\d+$/);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('is checked for real: the validator refuses a broken document', async () => {
    const broken = structuredClone(document);
    broken.paths['/whoami'].get.responses = { 200: { content: {} } }; // a response without description
    broken.components.securitySchemes.apiKey.type = 'password';
    const result = await new Validator().validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it('has components that are strict JSON Schema 2020-12 (ajv), their $refs resolved in the document', () => {
    const schemas = openApiSchemas(document);
    expect(schemas.names).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'OperatorChangePage',
        'OperatorWriteResult',
        'OrderSystemSubscription',
      ]),
    );
    for (const name of schemas.names) expect(() => schemas.validator(name), name).not.toThrow();
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/"\$schema"|"\$id"|"definitions"|"tsType"/);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g))
      expect(ref).toMatch(/^#\/components\/(schemas|responses)\/[A-Za-z]+$/);
  });

  it('describes every route of every part, and no operation that no route answers', () => {
    const routes = expressRoutes();
    const operations = documentedOperations(document);
    // Each described operation is answered by the first route that matches it, like Express would.
    const firstRoute = (op: { method: string; path: string }) =>
      routes.find((route) => route.method === op.method && answers(route.path, op.path));
    const undescribed = routes.filter((route) => !operations.some((op) => firstRoute(op) === route));
    const unanswered = operations.filter((op) => !firstRoute(op));
    expect(undescribed, 'routes without a description in OPERATOR_OPERATIONS').toEqual([]);
    expect(unanswered, 'operations no route answers').toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(6);
  });

  it("names every entity's record, upload and answer with that entity's own schema", () => {
    for (const entity of ORDER_SYSTEM_ENTITIES) {
      const item = document.paths[`/${entity.name}/{key}`];
      const record = new SchemaComponents().ref(entity.schema).$ref;
      expect(item.put.requestBody.content['application/json'].schema.$ref).toBe(record);
      expect(item.get.responses['200'].content['application/json'].schema.$ref).toBe(record);
      expect(item.delete.parameters).toContainEqual(
        expect.objectContaining({ name: 'version', in: 'query', required: true }),
      );
      expect(item.put.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
      );
      expect(item.put.security).toEqual([{ apiKey: ['write'] }]);
      expect(item.get.security).toEqual([{ apiKey: ['read'] }]);
      expect(Object.keys(item.put.responses)).toEqual(
        expect.arrayContaining(['200', '201', '400', '401', '403', '409', '422', '429']),
      );
      const upload = document.paths[`/imports/${entity.name}`].post;
      expect(upload.requestBody.content['application/x-ndjson']['x-itemSchema'].$ref).toBe(record);
      expect(upload.security).toEqual([{ apiKey: ['import'] }]);
      expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['200', '413', '415', '422']));
    }
    expect(document.paths['/whoami'].get.security).toEqual([{ apiKey: [] }]);
    expect(document.paths['/changes'].get.parameters.map((p: Json) => p.name)).toEqual([
      'after',
      'limit',
      'status',
    ]);
  });

  it('lists every status an operation can answer, with its error codes', () => {
    const refs: Json = document.components.responses;
    /** `status -> codes` of an operation, its $refs to components.responses resolved. */
    const codesOf = (operation: Json) =>
      Object.fromEntries(
        Object.entries(operation.responses as Json)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => {
            const resolved = response.$ref ? refs[String(response.$ref).split('/').pop()!] : response;
            return [status, Object.keys(resolved.content['application/json'].examples).sort()];
          }),
      );
    for (const { method, path: where } of documentedOperations(document)) {
      const operation = document.paths[where][method];
      const codes = codesOf(operation);
      const name = `${method} ${where}`;
      expect(codes['401'], name).toEqual(['invalid_api_key']);
      expect(codes['429'], name).toEqual(['rate_limited']);
      expect(codes['503'], name).toEqual(['database_unavailable']);
      if (where !== '/whoami') expect(codes['403'], name).toEqual(['insufficient_scope']);
      if (operation.requestBody?.content['application/json']) {
        expect(codes['400'], name).toEqual(
          expect.arrayContaining(['malformed_request', 'validation_failed']),
        );
        expect(codes['413'], name).toEqual(['payload_too_large']);
        expect(codes['415'], name).toEqual(['unsupported_media_type']);
      }
      if (operation.parameters?.some((p: Json) => p.in === 'path'))
        expect(codes['404'], name).toContain('not_found');
      if (operation.parameters?.length || operation.requestBody)
        expect(codes['400'], name).toContain('validation_failed');
    }
    expect(codesOf(document.paths['/whoami'].get)).toEqual({
      '401': ['invalid_api_key'],
      '429': ['rate_limited'],
      '503': ['database_unavailable'],
    });
    const subscriptions = document.paths['/subscriptions/{key}'];
    expect(codesOf(subscriptions.put)['409']).toEqual([
      'duplicate_value',
      'idempotency_key_in_use',
      'stale_version',
    ]);
    expect(codesOf(subscriptions.delete)['400']).toEqual(['invalid_idempotency_key', 'validation_failed']);
    expect(codesOf(document.paths['/imports/subscriptions'].post)['409']).toEqual(['duplicate_value']);
    expect(codesOf(document.paths['/imports/payments'].post)['409']).toBeUndefined();
  });

  it("describes a path key's shape: its ~ parts and the length its fields allow", () => {
    const keyOf = (entity: string) =>
      document.paths[`/${entity}/{key}`].get.parameters.find((p: Json) => p.name === 'key').schema;
    expect(keyOf('subscriptions')).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: '^[^~]+$',
    });
    expect(keyOf('payments')).toMatchObject({ maxLength: 129, pattern: '^[^~]+~[^~]+$' });
    expect(keyOf('licences')).toMatchObject({ maxLength: 330, pattern: '^[^~]+~[^~]+~.+$' });
  });

  it("judges records like the server's validator: a real request's record passes, broken ones fail", () => {
    const schemas = openApiSchemas(document);
    const subscriptions = ORDER_SYSTEM_ENTITIES.find((e) => e.name === 'subscriptions')!;
    const payments = ORDER_SYSTEM_ENTITIES.find((e) => e.name === 'payments')!;
    // The record of the API tests' PUT /subscriptions/101000123 (orderSystemWrites.int.test.ts).
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
    const payment = {
      version: '2026-03-01T10:00:00Z',
      subscriptionId: '101000123',
      id: '1',
      date: '2026-03-01',
      amount: '12.50',
      invoiceStatusCode: 'A',
    };
    const cases: Array<[typeof subscriptions, Json]> = [
      [subscriptions, subscription],
      [subscriptions, { ...subscription, orderNumber: '123' }],
      [subscriptions, { ...subscription, roles: [{ bpNumber: '1000000001', role: 'XX' }] }],
      [subscriptions, { ...subscription, extra: true }],
      [subscriptions, { ...subscription, version: -1 }],
      [subscriptions, { ...subscription, validFrom: '1. Januar' }],
      [payments, payment],
      [payments, { ...payment, amount: 'twelve' }],
      [payments, { ...payment, version: 'yesterday' }],
    ];
    for (const [entity, record] of cases) {
      const validate = schemas.validator(new SchemaComponents().ref(entity.schema).$ref.split('/').pop()!);
      expect(validate(structuredClone(record)), JSON.stringify(record)).toBe(
        readRecord(entity, structuredClone(record)).ok,
      );
    }
    expect(schemas.validator('OrderSystemSubscription')(subscription)).toBe(true);
  });
});

describe('SchemaComponents (draft-07 to JSON Schema 2020-12)', () => {
  it('hoists definitions, rewrites $refs, turns tuples and dependencies into their 2020-12 keywords', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-openapi-'));
    writeFileSync(
      path.join(dir, 'sample.schema.json'),
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'sample',
        title: 'Sample',
        type: 'object',
        properties: {
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
          part: { $ref: '#/definitions/part' },
          other: { $ref: 'other.schema.json' },
          any: { tsType: 'unknown' },
          items: { type: 'string', default: { $ref: 'data, not a reference' } },
        },
        dependencies: { pair: ['part'], part: { required: ['pair'] } },
        definitions: { part: { type: 'string' } },
      }),
    );
    writeFileSync(
      path.join(dir, 'other.schema.json'),
      JSON.stringify({ $id: 'other', title: 'Other', type: 'null' }),
    );
    const components = new SchemaComponents(dir);
    expect(components.ref('sample')).toEqual({ $ref: '#/components/schemas/Sample' });
    expect(components.schemas).toEqual({
      SamplePart: { type: 'string' },
      Other: { title: 'Other', type: 'null' },
      Sample: {
        title: 'Sample',
        type: 'object',
        properties: {
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
          part: { $ref: '#/components/schemas/SamplePart' },
          other: { $ref: '#/components/schemas/Other' },
          any: {},
          items: { type: 'string', default: { $ref: 'data, not a reference' } },
        },
        dependentRequired: { pair: ['part'] },
        dependentSchemas: { part: { required: ['pair'] } },
      },
    });
  });
});
