/**
 * A schema-driven fuzz of the operator API (docs/going-live.md "Going live with your order system", "The
 * OpenAPI description"): every operation of the OpenAPI document the tenant serves, called with
 * input generated from the document's own schemas — valid values first, then each mutated (wrong
 * types, huge numbers, 1e30, -1, NUL, unpaired surrogates, long strings, extra `~` parts, empty,
 * unicode) in its path, query, headers or body — with a key of each scope and without one. Not one
 * answer may be a 5xx, and every answer's status, and a refusal's error code, must be one the
 * document lists for that operation; a success's body must match its schema.
 *
 * The input comes from fast-check with a fixed seed, so a run is repeatable: a failure names the
 * request, and the same seed sends it again. The generator is written here on the document (no
 * JSON Schema data generator is installed); it knows the keywords the document uses.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import type { Database } from '../../../server/db/database';
import { recordEvent } from '../../../server/events/recordEvent';
import { createOperatorKey } from '../../../server/operator/keys/operatorKeys';
import { OPERATOR_OPERATIONS } from '../../../server/operator/operatorParts';
import { ORDER_SYSTEM_ENTITIES, recordKey } from '../../../server/operator/entities/orderSystemEntities';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { openApiSchemas, type OpenApiSchemas } from '../../support/openApiSchemas';

type Json = Record<string, any>;

/** The seed of every run: change it to explore, keep it to repeat. */
const SEED = 20_261_128;
/** Requests per operation, before the keys: valid ones, then mutated ones. */
const VALID_RUNS = 4;
const MUTATED_RUNS = 16;

const tenantOf = (prefix: string) =>
  makeServerTenant({
    id: uniqueTenantId(prefix),
    name: 'Verlag Fuzz',
    hosts: [],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features: [],
  });
/** The tenant every call with a key goes to. */
const tenant = tenantOf('fuzz');
/**
 * The calls without a key go to a tenant of their own (the server's limit of failed
 * authentications is raised for this test, see beforeAll).
 */
const keyless = tenantOf('fuzz-nokey');
const outboxDir = mkdtempSync(path.join(tmpdir(), 'portal-fuzz-'));
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
const keys: Record<'read' | 'write' | 'import', string> = { read: '', write: '', import: '' };

/** Rows the calls can name, so valid records pass their reference checks and reach the tables. */
const KNOWN: Record<string, readonly string[]> = {
  publication: ['FZP'],
  bpNumber: ['1000000001'],
  subscriptionId: ['FZS0000001'],
  orderNumber: ['4000000001'],
  tierCode: ['GOLD'],
  email: ['anna@example.com'],
  eventId: [],
};

// ---------------------------------------------------------------------------------------------
// Values from the document's schemas (JSON Schema 2020-12 as OpenAPI 3.1 has it).

let document: Json;

function resolve(schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = document.components.schemas[name];
  if (!target) throw new Error(`no schema ${schema.$ref}`);
  return resolve(target);
}

/** A string matching the pattern (fast-check's own generator where it reads the pattern). */
function matching(pattern: string, minLength: number, maxLength: number): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, 'u');
  const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  try {
    return fc.stringMatching(regex).filter(fits);
  } catch {
    // Lookarounds and property escapes (a licence's e-mail address): plain words and the test.
    return fc
      .tuple(fc.stringMatching(/^[a-z0-9.~-]{1,20}$/), fc.constantFrom('example.com', 'verlag.de'))
      .map(([local, domain]) => `${local}@${domain}`)
      .filter((s) => regex.test(s) && fits(s));
  }
}

function stringArb(schema: Json): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 300);
  if (schema.format === 'date-time') {
    // The patterns of dates and times name their years; within them any valid time will do.
    const from = /19\[7/.test(schema.pattern ?? '') ? 0 : Date.UTC(1000, 0, 1);
    return fc.integer({ min: from, max: Date.UTC(9999, 11, 31) }).map((ms) => new Date(ms).toISOString());
  }
  if (schema.format === 'date')
    return fc
      .integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.pattern) return matching(schema.pattern, minLength, maxLength);
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
}

function numberArb(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(schema.minimum ?? -1e6, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER);
  if (integer)
    return fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 1e6) }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
    );
  // Amounts: cents within the range.
  return fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((cents) => cents / 100);
}

/** A JSON value of any shape for a schema that only says "object" (jsonb columns). */
const anyObject = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 8 }),
  fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null)),
  { maxKeys: 3 },
);

/** A valid value of the schema; `name` is the property it is for (to name the seeded rows). */
function arbitraryOf(raw: Json, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const own = ownArbitrary(schema, depth);
  const known = name ? KNOWN[name] : undefined;
  return known?.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: own })
    : own;
}

function ownArbitrary(schema: Json, depth: number): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (branches) {
    // A oneOf's branches carry the shared properties' schemas only in the branches.
    const base = { ...schema, oneOf: undefined, anyOf: undefined };
    return fc.oneof(...branches.map((b) => arbitraryOf({ ...base, ...resolve(b) }, undefined, depth)));
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringArb(schema);
        case 'integer':
          return numberArb(schema, true);
        case 'number':
          return numberArb(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return fc.array(schema.items ? arbitraryOf(schema.items, undefined, depth + 1) : fc.string(), {
            maxLength: 3,
          });
        default:
          return objectArb(schema, depth);
      }
    }),
  );
}

function objectArb(schema: Json, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  if (Object.keys(properties).length === 0) {
    if (schema.propertyNames && typeof schema.additionalProperties === 'object') {
      // A text per locale (a rejection's reason): the tenant's locales, or any the pattern takes.
      const text = arbitraryOf(schema.additionalProperties, undefined, depth + 1);
      return fc.oneof(
        fc.tuple(text, text).map(([de, en]) => ({ 'de-DE': de, 'en-GB': en })),
        fc.dictionary(matching(schema.propertyNames.pattern, 1, 10), text, {
          minKeys: schema.minProperties ?? 0,
          maxKeys: 3,
        }),
      );
    }
    return depth > 2 ? fc.constant({}) : anyObject;
  }
  const required: string[] = schema.required ?? [];
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, name, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: required });
}

// ---------------------------------------------------------------------------------------------
// Requests of an operation, valid and mutated.

interface Operation {
  method: string;
  path: string;
  operation: Json;
}

interface FuzzRequest {
  params: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** The JSON body, or the NDJSON body's records. */
  json?: unknown;
  lines?: unknown[];
  /** Sent instead of the JSON: a body that is not what the operation reads. */
  text?: string;
  contentType?: string | null;
  mutation: string;
}

const entityOfPath = (p: string) => ORDER_SYSTEM_ENTITIES.find((e) => p === `/${e.name}/{key}`);

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function validRequest({ path: where, operation }: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters: Json[] = operation.parameters ?? [];
  const entity = entityOfPath(where);
  const paramArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of parameters.filter((p) => p.in === 'path')) {
    const ofSchema = arbitraryOf(p.schema, p.name).map(asText);
    if (entity && p.name === 'key') {
      // A record's own key (often one of the seeded rows), or any text the key's schema takes.
      const recordSchema = document.paths[where].get.responses['200'].content['application/json'].schema;
      paramArbs[p.name] = fc.oneof(
        { weight: 3, arbitrary: arbitraryOf(recordSchema).map((r) => recordKey(entity, r as Json)) },
        { weight: 1, arbitrary: ofSchema },
      );
    } else paramArbs[p.name] = ofSchema;
  }
  const queryArbs = parameters
    .filter((p) => p.in === 'query')
    .map((p) => {
      const value = arbitraryOf(p.schema, p.name).map((v) => [p.name, asText(v)] as [string, string]);
      return p.required
        ? value.map((v) => [v])
        : fc.option(value, { nil: undefined }).map((v) => (v ? [v] : []));
    });
  const headerArbs = parameters
    .filter((p) => p.in === 'header')
    .map((p) =>
      fc.option(
        arbitraryOf(p.schema).map((v) => [p.name, asText(v)] as [string, string]),
        { nil: undefined },
      ),
    );
  const content = operation.requestBody?.content ?? {};
  let body: fc.Arbitrary<Partial<FuzzRequest>> = fc.constant({});
  if (content['application/json'])
    body = arbitraryOf(content['application/json'].schema).map((json) => ({ json }));
  else if (content['application/x-ndjson'])
    body = fc
      .array(arbitraryOf(content['application/x-ndjson']['x-itemSchema']), { minLength: 1, maxLength: 3 })
      .map((lines) => ({ lines }));
  return fc
    .record({
      params: fc.record(paramArbs),
      query: fc.tuple(...queryArbs).map((lists) => lists.flat()),
      headers: fc
        .tuple(...headerArbs)
        .map((pairs) => Object.fromEntries(pairs.filter((p) => p !== undefined))),
      body,
      ownKey: fc.nat(4),
    })
    .map(({ params, query, headers, body, ownKey }) => ({
      // An upsert goes to its record's own path, mostly (else: 400 key_mismatch).
      params:
        entity && body.json && typeof body.json === 'object' && ownKey > 0
          ? { ...params, key: recordKey(entity, body.json as Json) }
          : params,
      query,
      headers,
      ...body,
      mutation: 'valid',
    }));
}

/** Strings no field should take, and some it should. */
const MUTANT_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\u0001',
  '\t',
  'x'.repeat(70),
  'x'.repeat(5000),
  'Ünïcödé',
  '😀',
  '\u202egnp.exe',
  'e\u0301',
  '~',
  'a~b~c~d',
  '.',
  '..',
  '/',
  '%',
  '-1',
  '1e30',
  '99999999999999999999',
  '9007199254740993',
  'null',
  'true',
  '1.5',
  '2026-13-45',
  '0000-01-01',
  '1969-12-31T23:59:59Z',
  '2016-12-31T23:59:60Z',
  '99999999999999999999.1',
];
const mutantString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MUTANT_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const mutantValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: mutantString },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      1e30,
      -1e30,
      2 ** 63,
      2 ** 64,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      -1,
      0,
      0.5,
      2147483648,
      true,
      null,
      [],
      {},
      [1, 2],
      { a: { b: 'c' } },
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
);
/** What no JSON parser takes, or a JSON top level no record is. */
const BROKEN_JSON = ['{', '{"version": 1,', 'nul', '', '\u0000', '1e400', '"text"', '[1,', '{"a":"\\ud800"}'];
const CONTENT_TYPES = [
  null,
  'text/plain',
  'application/json; charset=latin1',
  'application/json',
  'application/x-ndjson',
  'multipart/form-data; boundary=x',
];

/** Deep nesting, for the records' jsonb fields: as text, since JSON.stringify recurses. */
const deepText = (levels: number) => `${'{"deep":'.repeat(levels)}"x"${'}'.repeat(levels)}`;

/** Sets a field of a JSON value at a path of keys (creating nothing: a missing path sets the top). */
function withField(value: unknown, keysPath: string[], replacement: unknown): unknown {
  if (keysPath.length === 0 || value === null || typeof value !== 'object') return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as Json) };
  const [first, ...rest] = keysPath;
  copy[first] = withField(copy[first], rest, replacement);
  return copy;
}

/** The paths to every field of a JSON value (depth 3). */
function fieldPaths(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (value === null || typeof value !== 'object' || depth > 3) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    [...prefix, key],
    ...fieldPaths(item, [...prefix, key], depth + 1),
  ]);
}

function mutatedRequest(op: Operation): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(validRequest(op), fc.nat(), fc.nat(), mutantValue, mutantString, fc.nat())
    .map(([request, pick, pick2, value, text, pick3]) => {
      const kinds: string[] = [];
      if (Object.keys(request.params).length) kinds.push('param', 'param', 'keyParts');
      if ((op.operation.parameters ?? []).some((p: Json) => p.in === 'query'))
        kinds.push('query', 'query', 'queryExtra');
      if ((op.operation.parameters ?? []).some((p: Json) => p.in === 'header')) kinds.push('header');
      if (request.json !== undefined)
        kinds.push('field', 'field', 'field', 'drop', 'whole', 'broken', 'contentType', 'deep');
      if (request.lines) kinds.push('line', 'line', 'brokenLine', 'contentType');
      if (kinds.length === 0) kinds.push('query', 'queryExtra');
      const kind = kinds[pick % kinds.length];
      const next: FuzzRequest = { ...request, mutation: kind };
      switch (kind) {
        case 'param': {
          const names = Object.keys(request.params);
          next.params = { ...request.params, [names[pick2 % names.length]]: text };
          break;
        }
        case 'keyParts': {
          const names = Object.keys(request.params);
          const name = names[pick2 % names.length];
          const parts = request.params[name].split('~');
          const variants = [
            `${request.params[name]}~x`,
            `${request.params[name]}~~`,
            parts[0],
            `~${request.params[name]}`,
            parts.join('~~'),
          ];
          next.params = { ...request.params, [name]: variants[pick3 % variants.length] };
          break;
        }
        case 'query': {
          const names = ((op.operation.parameters ?? []) as Json[])
            .filter((p) => p.in === 'query')
            .map((p) => p.name as string);
          const name = names[pick2 % names.length] ?? 'x';
          const others = request.query.filter(([n]) => n !== name);
          next.query =
            pick3 % 4 === 0
              ? others
              : pick3 % 4 === 1
                ? [...request.query, [name, text]]
                : [...others, [name, asText(value)]];
          break;
        }
        case 'queryExtra':
          next.query = [...request.query, [text || 'x', asText(value)]];
          break;
        case 'header': {
          const bad = ['', ' ', 'x'.repeat(300), 'ü', 'a b', '\u007f', 'key\u0001', '😀'];
          next.headers = { ...request.headers, 'Idempotency-Key': bad[pick2 % bad.length] };
          break;
        }
        case 'field': {
          const paths = fieldPaths(request.json);
          next.json = withField(
            request.json,
            paths.length ? paths[pick2 % paths.length] : ['version'],
            value,
          );
          break;
        }
        case 'drop': {
          const fields = Object.keys((request.json as Json) ?? {});
          const copy = { ...(request.json as Json) };
          delete copy[fields[pick2 % Math.max(fields.length, 1)]];
          next.json = copy;
          break;
        }
        case 'whole':
          next.json = value;
          break;
        case 'broken':
          next.text = BROKEN_JSON[pick2 % BROKEN_JSON.length];
          break;
        case 'contentType':
          next.contentType = CONTENT_TYPES[pick2 % CONTENT_TYPES.length];
          break;
        case 'deep':
          next.text = JSON.stringify(withField(request.json, ['details'], '\u0001deep')).replace(
            '"\\u0001deep"',
            deepText(pick2 % 2 ? 40 : 100_000),
          );
          break;
        case 'line': {
          const lines = [...request.lines!];
          const at = pick2 % lines.length;
          const paths = fieldPaths(lines[at]);
          lines[at] = withField(lines[at], paths.length ? paths[pick3 % paths.length] : [], value);
          next.lines = lines;
          break;
        }
        case 'brokenLine':
          next.lines = [...request.lines!, BROKEN_JSON[pick2 % BROKEN_JSON.length] as unknown];
          next.text = [
            ...request.lines!.map((l) => JSON.stringify(l)),
            BROKEN_JSON[pick2 % BROKEN_JSON.length],
          ].join('\n');
          break;
      }
      return next;
    });
}

// ---------------------------------------------------------------------------------------------
// Sending, and judging the answer by the document.

/**
 * Percent-encodes every byte but the unreserved ones, an unpaired surrogate as the three bytes
 * UTF-8 would give its code (WTF-8: `%ED%A0%80`), which is what a client sends that encodes one.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (/^[A-Za-z0-9\-._~]$/.test(char)) {
      out += char;
      continue;
    }
    const bytes =
      code < 0x80
        ? [code]
        : code < 0x800
          ? [0xc0 | (code >> 6), 0x80 | (code & 63)]
          : code < 0x10000
            ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
            : [
                0xf0 | (code >> 18),
                0x80 | ((code >> 12) & 63),
                0x80 | ((code >> 6) & 63),
                0x80 | (code & 63),
              ];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

interface Answer {
  status: number;
  code?: string;
  body: unknown;
}

async function send(
  op: Operation,
  request: FuzzRequest,
  auth: keyof typeof keys | 'none',
): Promise<Answer | 'unsendable'> {
  const route = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    percentEncode(request.params[name] ?? ''),
  );
  const query = request.query.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join('&');
  const target = auth === 'none' ? keyless : tenant;
  const url = `${baseUrl}/t/${target.id}/operator/v1${route}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = { ...request.headers };
  if (auth !== 'none') headers.authorization = `Bearer ${keys[auth]}`;
  let body: string | undefined;
  if (request.text !== undefined) body = request.text;
  else if (request.lines) body = request.lines.map((line) => JSON.stringify(line)).join('\n');
  else if (request.json !== undefined) body = JSON.stringify(request.json);
  const defaultType = request.lines ? 'application/x-ndjson' : 'application/json';
  const contentType = request.contentType === undefined ? defaultType : request.contentType;
  if (body !== undefined && contentType) headers['content-type'] = contentType;
  let response: Response;
  try {
    response = await fetch(url, { method: op.method.toUpperCase(), headers, body });
  } catch (error) {
    // A header value fetch itself refuses (a character outside Latin-1): nothing was sent.
    if (error instanceof TypeError && !String(error.cause ?? '').includes('ECONNRESET')) return 'unsendable';
    throw error;
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // judged below: an answer that is not JSON is one no operation documents
  }
  const code = (parsed as { error?: { code?: unknown } } | null)?.error?.code;
  return { status: response.status, code: typeof code === 'string' ? code : undefined, body: parsed };
}

/** What is wrong with an answer by the document, or undefined. */
function judge(op: Operation, answer: Answer, schemas: OpenApiSchemas): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  const documented = op.operation.responses[String(answer.status)];
  if (!documented) return `answered ${answer.status}, which the document does not list`;
  const response = documented.$ref
    ? document.components.responses[String(documented.$ref).split('/').pop()!]
    : documented;
  const content = response.content?.['application/json'];
  if (answer.status >= 400) {
    const codes = Object.keys(content?.examples ?? {});
    if (!answer.code || !codes.includes(answer.code))
      return `answered ${answer.status} ${answer.code ?? JSON.stringify(answer.body).slice(0, 80)}, not one of ${codes.join(', ')}`;
    return undefined;
  }
  const ref = content?.schema?.$ref as string | undefined;
  if (ref) {
    const validate = schemas.validator(ref.split('/').pop()!);
    if (!validate(answer.body))
      return `answered ${answer.status} with a body its schema refuses: ${JSON.stringify(validate.errors?.slice(0, 2))}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  db = await getTestDatabase();
  const { app } = createApp({
    db,
    tenants: [tenant, keyless],
    distDir: path.join(outboxDir, 'no-dist'),
    mailer: createMailer({ outboxDir }),
    // The keyless calls' failed authentications count per client across tenants: raised so they
    // do not lock the keyed calls out (the limit has tests of its own).
    operatorAuthFailureLimit: { windowSeconds: 900, limit: 1_000_000 },
  });
  ({ baseUrl, close } = await listen(app));
  const now = new Date();
  for (const scope of ['read', 'write', 'import'] as const)
    keys[scope] = (await createOperatorKey(db, tenant.id, { name: scope, scopes: [scope], now })).secret;
  const seed = async (route: string, record: Json) => {
    const response = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1${route}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${keys.write}`, 'content-type': 'application/json' },
      body: JSON.stringify(record),
    });
    expect(response.status, route).toBe(201);
  };
  await seed('/publications/FZP', { version: 1, publication: 'FZP', clientId: 'FZS', description: 'Fuzz' });
  await seed('/business-partners/1000000001', { version: 1, bpNumber: '1000000001' });
  await seed('/subscriptions/FZS0000001', {
    version: 1,
    id: 'FZS0000001',
    orderNumber: '4000000001',
    publication: 'FZP',
    orderStatus: 'A',
    mixType: 'PR',
    roles: [{ bpNumber: '1000000001', role: 'AG' }],
  });
  await seed('/licence-objects/FZS0000001~4000000001', {
    version: 1,
    subscriptionId: 'FZS0000001',
    orderNumber: '4000000001',
    maxActiveLicenses: 3,
  });
  await seed('/loyalty-tiers/GOLD', {
    version: 1,
    tierCode: 'GOLD',
    position: 1,
    name: { 'de-DE': 'Gold', 'en-GB': 'Gold' },
    description: { 'de-DE': '', 'en-GB': '' },
    runtimeToReach: 12,
  });
  for (let i = 0; i < 3; i++)
    (KNOWN.eventId as string[]).push(
      await db.transaction((tx) =>
        recordEvent(tx, tenant.id, 'order_attribute.changed', {
          userId: 'fuzz-user',
          subscriptionId: 'FZS0000001',
          orderNumber: '4000000001',
          type: 'DELIVERY_NOTE',
          value: `note ${i}`,
          previousValue: null,
        }),
      ),
    );
  const served = await fetch(`${baseUrl}/t/${tenant.id}/operator/v1/openapi.json`);
  expect(served.status).toBe(200);
  document = (await served.json()) as Json;
});

afterAll(async () => close?.());

describe('the operator API under schema-driven fuzzing', () => {
  it('answers every generated request of every operation with a status and code its document lists, never 5xx', async () => {
    const schemas = openApiSchemas(document);
    const operations: Operation[] = Object.entries(document.paths as Json).flatMap(([where, item]) =>
      ['get', 'put', 'post', 'delete']
        .filter((method) => (item as Json)[method])
        .map((method) => ({ method, path: where, operation: (item as Json)[method] })),
    );
    expect(operations).toHaveLength(OPERATOR_OPERATIONS.length);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    let unsendable = 0;
    for (const [index, op] of operations.entries()) {
      const requests = [
        ...fc.sample(validRequest(op), { seed: SEED + index, numRuns: VALID_RUNS }),
        ...fc.sample(mutatedRequest(op), { seed: SEED + 1000 + index, numRuns: MUTATED_RUNS }),
      ];
      for (const request of requests)
        for (const auth of ['read', 'write', 'import', 'none'] as const) {
          const answer = await send(op, request, auth);
          if (answer === 'unsendable') {
            unsendable += 1;
            continue;
          }
          sent += 1;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const problem = judge(op, answer, schemas);
          if (problem)
            failures.push(
              `${op.method.toUpperCase()} ${op.path} (${request.mutation}, key ${auth}) ${problem}\n    request: ${JSON.stringify(request).slice(0, 400)}`,
            );
        }
    }
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(
      `operator API fuzz (seed ${SEED}): ${sent} requests to ${operations.length} operations (${unsendable} not sendable by fetch); ${byStatus}; ${failures.length} failures`,
    );
    expect(failures.slice(0, 30), `${failures.length} answers the document does not allow`).toEqual([]);
    // The valid requests reach the tables: records are created, not only refused.
    expect(statuses.get(201) ?? 0).toBeGreaterThan(10);
    // Hundreds of requests: well under a minute alone, longer beside the other test files.
  }, 180_000);
});
