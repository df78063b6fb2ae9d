/**
 * The operator API's OpenAPI 3.1 document, generated from `schemas/api` and
 * served at `…/operator/v1/openapi.json`. Built in code, never written by hand:
 * the paths from the parts' operation tables (OPERATOR_OPERATIONS), the shapes from the draft-07
 * schemas in schemas/api, converted to the JSON Schema 2020-12 that OpenAPI 3.1 speaks. So the
 * document cannot drift from the validators the routes run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperatorErrorCase, OperatorOperation, OperatorParameter } from './operatorOperation';

type Json = Record<string, unknown>;

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../schemas/api');

/**
 * The document's version. The major is the `v1` of the path (a breaking change is a new path);
 * raise the minor when an operation or a field is added, the patch when only a text changes.
 */
export const OPERATOR_API_VERSION = '1.0.0';

/** The name of the security scheme: a tenant's API key as a bearer token (keys/operatorAuth.ts). */
const SECURITY_SCHEME = 'apiKey';

// Keywords whose values are schemas (recursed into) — every other keyword's value is data
// (enum, const, default, examples) and is copied untouched, even if it holds a "$ref" key.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'items',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** json-schema-to-typescript's annotations (scripts/generateTypes.ts): not JSON Schema, and ajv's strict mode refuses them. */
const GENERATOR_ONLY = new Set(['tsType', 'tsEnumNames']);

const pascal = (name: string) =>
  name.replace(/(^|[-_\s]+)([a-zA-Z0-9])/g, (_m, _sep, c: string) => c.toUpperCase());

/** A file's schema without what only a file's root has: its dialect, its id and its definitions (hoisted). */
function withoutRootKeywords(raw: Json): Json {
  const { $schema: _schema, $id: _id, definitions: _definitions, $defs: _defs, ...root } = raw;
  return root;
}

/**
 * The components.schemas of the document: each schemas/api file used, converted from draft-07 to
 * 2020-12 (`$schema` and `$id` dropped — an `$id` would move the base of every `$ref` inside it —
 * `definitions` hoisted to components of their own, `$ref`s rewritten to
 * `#/components/schemas/<name>`, tuple `items` to `prefixItems`, `dependencies` split). A schema is
 * named by its `title` (the name generateTypes gives its TypeScript type), so a client generated
 * from the document has the portal's own type names.
 */
export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  /** `basename` and `basename#/definitions/name` -> component name. */
  private readonly names = new Map<string, string>();

  constructor(private readonly schemaDir = SCHEMA_DIR) {}

  /** A `$ref` to the schema `basename` (or `basename#/definitions/name`), added when first used. */
  ref(name: string): { $ref: string } {
    return { $ref: `#/components/schemas/${this.add(name)}` };
  }

  /** The converted schema of `basename`, not added as a component (a query's parameters). */
  read(basename: string): Json {
    return this.convert(withoutRootKeywords(this.load(basename)), basename);
  }

  private load(basename: string): Json {
    return JSON.parse(readFileSync(path.join(this.schemaDir, `${basename}.schema.json`), 'utf8')) as Json;
  }

  private add(name: string): string {
    const known = this.names.get(name);
    if (known) return known;
    const [basename, fragment] = name.split('#');
    if (fragment !== undefined) {
      this.add(basename);
      const found = this.names.get(name);
      if (!found) throw new Error(`schemas/api/${basename}.schema.json has no ${fragment}`);
      return found;
    }
    const raw = this.load(basename);
    const component = typeof raw.title === 'string' ? pascal(raw.title) : pascal(basename);
    this.names.set(basename, component);
    const definitions = {
      ...((raw.definitions ?? {}) as Record<string, Json>),
      ...((raw.$defs ?? {}) as Record<string, Json>),
    };
    for (const [def, schema] of Object.entries(definitions)) {
      const defName = typeof schema.title === 'string' ? pascal(schema.title) : `${component}${pascal(def)}`;
      this.names.set(`${basename}#/definitions/${def}`, defName);
      this.names.set(`${basename}#/$defs/${def}`, defName);
    }
    for (const [def, schema] of Object.entries(definitions))
      this.put(this.names.get(`${basename}#/definitions/${def}`)!, this.convert(schema, basename));
    this.put(component, this.convert(withoutRootKeywords(raw), basename));
    return component;
  }

  private put(name: string, schema: Json): void {
    if (name in this.schemas) throw new Error(`two schemas of the operator API are named ${name}`);
    this.schemas[name] = schema;
  }

  /** A `$ref` of a draft-07 schema in file `basename`, as a reference to a component. */
  private rewriteRef(ref: string, basename: string): string {
    const local = /^#\/(definitions|\$defs)\/([^/]+)$/.exec(ref);
    if (local) return this.ref(`${basename}#/definitions/${local[2]}`).$ref;
    if (ref === '#') return this.ref(basename).$ref;
    const other = /^(?:\.\/)?([a-z0-9-]+)(?:\.schema\.json)?(?:#\/(?:definitions|\$defs)\/([^/]+))?$/.exec(
      ref,
    );
    if (other) return this.ref(other[2] ? `${other[1]}#/definitions/${other[2]}` : other[1]).$ref;
    throw new Error(
      `schemas/api/${basename}.schema.json: the $ref ${ref} cannot be made a component reference`,
    );
  }

  private convert(node: Json, basename: string): Json {
    const out: Json = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (GENERATOR_ONLY.has(keyword)) continue;
      if (keyword === '$ref') out.$ref = this.rewriteRef(value as string, basename);
      else if (keyword === 'definitions' || keyword === '$schema' || keyword === '$id')
        throw new Error(`schemas/api/${basename}.schema.json: ${keyword} below the root is not converted`);
      else if (keyword === 'items' && Array.isArray(value))
        out.prefixItems = value.map((item) => this.convert(item as Json, basename));
      else if (keyword === 'additionalItems')
        // draft-07's additionalItems only applies beside a tuple `items`, which is prefixItems now.
        out.items = typeof value === 'object' ? this.convert(value as Json, basename) : value;
      else if (keyword === 'dependencies') {
        for (const [property, dependency] of Object.entries(value as Json)) {
          const target = Array.isArray(dependency) ? 'dependentRequired' : 'dependentSchemas';
          out[target] = {
            ...(out[target] as Json | undefined),
            [property]: Array.isArray(dependency) ? dependency : this.convert(dependency as Json, basename),
          };
        }
      } else if (SCHEMA_MAPS.has(keyword))
        out[keyword] = Object.fromEntries(
          Object.entries(value as Json).map(([k, v]) => [k, this.convert(v as Json, basename)]),
        );
      else if (SCHEMA_LISTS.has(keyword))
        out[keyword] = (value as Json[]).map((v) => this.convert(v, basename));
      else if (SCHEMA_VALUES.has(keyword) && typeof value === 'object' && value !== null)
        out[keyword] = this.convert(value as Json, basename);
      else out[keyword] = value;
    }
    return out;
  }
}

/** Where the document is read: the tenant and the URL its API answers under. */
export interface OpenApiTarget {
  tenantName: string;
  /** `/t/<tenant>/operator/v1`, or `/operator/v1` on the tenant's own host. */
  serverUrl: string;
}

const ERROR_BODY = 'error-body';

function errorContent(components: SchemaComponents, cases: readonly OperatorErrorCase[]): Json {
  return {
    'application/json': {
      schema: components.ref(ERROR_BODY),
      examples: Object.fromEntries(
        cases.map((c) => [c.code, { summary: c.when, value: { error: { code: c.code, message: c.when } } }]),
      ),
    },
  };
}

function errorResponse(
  components: SchemaComponents,
  cases: readonly OperatorErrorCase[],
  headers?: Json,
): Json {
  return {
    description: cases.map((c) => `\`${c.code}\`: ${c.when}`).join('\n\n'),
    ...(headers ? { headers } : {}),
    content: errorContent(components, cases),
  };
}

const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description: 'Bearer realm="operator" with the error (RFC 6750).',
    schema: { type: 'string' },
  },
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** The refusals every call can get, in components.responses. */
function commonResponses(components: SchemaComponents): Json {
  return {
    InvalidApiKey: errorResponse(
      components,
      [
        {
          code: 'invalid_api_key',
          when: 'No key, or a key that is unknown, revoked or of another tenant (all answered alike).',
        },
      ],
      WWW_AUTHENTICATE,
    ),
    InsufficientScope: errorResponse(
      components,
      [{ code: 'insufficient_scope', when: "The key lacks the operation's scope (details.scope names it)." }],
      WWW_AUTHENTICATE,
    ),
    RateLimited: errorResponse(
      components,
      [
        {
          code: 'rate_limited',
          when: 'Too many calls with an invalid key from this client within 15 minutes: wait for Retry-After.',
        },
      ],
      RETRY_AFTER,
    ),
    DatabaseUnavailable: errorResponse(
      components,
      [
        {
          code: 'database_unavailable',
          when: 'The database cannot be reached (down or restarting): retry after Retry-After. Only then: a request the database refuses for its content is a 4xx.',
        },
      ],
      RETRY_AFTER,
    ),
  };
}

function parameter(where: 'path' | 'query' | 'header', p: OperatorParameter): Json {
  return {
    name: p.name,
    in: where,
    description: p.description,
    required: where === 'path' ? true : (p.required ?? false),
    schema: p.schema,
    ...(p.example !== undefined ? { example: p.example } : {}),
  };
}

/** The properties of a query schema as query parameters (their descriptions moved up to the parameter). */
function queryParameters(components: SchemaComponents, basename: string): Json[] {
  const schema = components.read(basename);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: 'query',
      description: description ?? '',
      required: required.has(name),
      schema: propertySchema,
    };
  });
}

/**
 * The refusals an operation gets from what it reads, whichever part it belongs to, so that every
 * status it can answer is in the document (docs/going-live.md "The OpenAPI description"):
 *  - a JSON body goes through the one parser of operatorInputGuard.ts (operatorJsonBody): 400 when
 *    it is not JSON or not UTF-8, 413 over 4 MB, 415 for another media type or a charset or
 *    Content-Encoding it cannot read;
 *  - anything read from the request can be refused, by the checks or, for a value they let
 *    through, by the database (databaseInputError): 400 `validation_failed`;
 *  - a path parameter that is empty, `.` or `..` leaves a path no route answers (URLs resolve the
 *    dots away): 404 `not_found`.
 */
const JSON_BODY_ERRORS: Readonly<Record<number, readonly OperatorErrorCase[]>> = {
  400: [{ code: 'malformed_request', when: 'The body is not JSON, or not UTF-8.' }],
  413: [{ code: 'payload_too_large', when: 'The body is larger than 4 MB.' }],
  415: [
    {
      code: 'unsupported_media_type',
      when: 'The body is not sent as application/json, or in a charset or Content-Encoding the server does not read (send UTF-8 JSON).',
    },
  ],
};
const INPUT_REFUSED: OperatorErrorCase = {
  code: 'validation_failed',
  when: 'A value of the request is not valid (details name each field, `params/…` and `query/…` for the URL), or is one the database refuses.',
};
const NO_SUCH_PATH: OperatorErrorCase = {
  code: 'not_found',
  when: 'An empty path parameter, or `.` or `..` (which URLs resolve away), leaves a path that names no operation.',
};

/**
 * The operation's own refusals and those of what it reads, by status, each code once: a code the
 * operation names itself keeps its own text, followed by the shared one.
 */
function errorsOf(op: OperatorOperation): Array<[number, OperatorErrorCase[]]> {
  const byStatus = new Map<number, OperatorErrorCase[]>();
  const add = (status: number, cases: readonly OperatorErrorCase[]) => {
    const list = byStatus.get(status) ?? [];
    for (const c of cases) {
      const known = list.findIndex((k) => k.code === c.code);
      if (known < 0) list.push(c);
      else if (!list[known].when.includes(c.when))
        list[known] = { code: c.code, when: `${list[known].when} ${c.when}` };
    }
    byStatus.set(status, list);
  };
  for (const [status, cases] of Object.entries(op.errors ?? {})) add(Number(status), cases);
  const readsInput =
    (op.pathParameters?.length ?? 0) > 0 ||
    op.querySchema !== undefined ||
    (op.queryParameters?.length ?? 0) > 0 ||
    (op.headerParameters?.length ?? 0) > 0 ||
    op.body !== undefined;
  if (readsInput) add(400, [INPUT_REFUSED]);
  if (op.body?.mediaType === 'application/json')
    for (const [status, cases] of Object.entries(JSON_BODY_ERRORS)) add(Number(status), cases);
  if ((op.pathParameters?.length ?? 0) > 0) add(404, [NO_SUCH_PATH]);
  return [...byStatus].sort(([a], [b]) => a - b);
}

function operationObject(components: SchemaComponents, op: OperatorOperation): Json {
  const parameters = [
    ...(op.pathParameters ?? []).map((p) => parameter('path', p)),
    ...(op.querySchema ? queryParameters(components, op.querySchema) : []),
    ...(op.queryParameters ?? []).map((p) => parameter('query', p)),
    ...(op.headerParameters ?? []).map((p) => parameter('header', p)),
  ];
  const responses: Json = {};
  for (const [status, answer] of Object.entries(op.responses))
    responses[status] = {
      description: answer.description,
      ...(answer.headers ? { headers: answer.headers } : {}),
      content: { 'application/json': { schema: components.ref(answer.schema) } },
    };
  for (const [status, cases] of errorsOf(op)) responses[status] = errorResponse(components, cases);
  responses['401'] = { $ref: '#/components/responses/InvalidApiKey' };
  if (op.scope !== 'any') responses['403'] = { $ref: '#/components/responses/InsufficientScope' };
  responses['429'] = { $ref: '#/components/responses/RateLimited' };
  responses['503'] = { $ref: '#/components/responses/DatabaseUnavailable' };

  let requestBody: Json | undefined;
  if (op.body?.mediaType === 'application/json')
    requestBody = {
      required: true,
      description: op.body.description,
      content: { 'application/json': { schema: components.ref(op.body.schema) } },
    };
  else if (op.body?.mediaType === 'application/x-ndjson')
    // OpenAPI 3.1 cannot give a schema to each line of a stream (3.2's `itemSchema` can): the body
    // is a string of that media type, and the schema of a line is named beside it in
    // `x-itemSchema` (an extension, which every 3.1 validator accepts) and in the text.
    requestBody = {
      required: true,
      description: `${op.body.description} Each line is valid under \`${components.ref(op.body.lineSchema).$ref}\` (also given as \`x-itemSchema\`).`,
      content: {
        'application/x-ndjson': {
          schema: { type: 'string', contentMediaType: 'application/x-ndjson' },
          'x-itemSchema': components.ref(op.body.lineSchema),
          ...(op.body.example ? { example: op.body.example } : {}),
        },
      },
    };

  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description}\n\nScope: ${op.scope === 'any' ? 'any valid key' : `\`${op.scope}\``}.`,
    // OpenAPI 3.1 lets a non-OAuth scheme list the roles it needs: the key scope requireScope asks.
    security: [{ [SECURITY_SCHEME]: op.scope === 'any' ? [] : [op.scope] }],
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The document for one tenant; everything but `servers` and the title is the same for all. */
export function operatorOpenApi(
  operations: readonly OperatorOperation[],
  target: OpenApiTarget,
  schemaDir?: string,
): Json {
  const components = new SchemaComponents(schemaDir);
  const responses = commonResponses(components);
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`two descriptions of ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(components, op);
  }
  const tags = [...new Set(operations.map((op) => op.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: `${target.tenantName} operator API`,
      version: OPERATOR_API_VERSION,
      description:
        'The publisher\'s order system\'s connection to the portal: write the records it owns, import NDJSON files, and page through and acknowledge the changes subscribers made. Every call carries one of the tenant\'s API keys (`portal keys create <tenant> --scope read,write,import`) as `Authorization: Bearer <key>`. Every refusal is `{ "error": { "code", "message", "details"? } }`.',
    },
    servers: [{ url: target.serverUrl, description: `The operator API of ${target.tenantName}.` }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags,
    paths,
    components: {
      schemas: components.schemas,
      responses,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description:
            "One of the tenant's API keys (`pk_<tenant>_…`), made with `portal keys create <tenant>` and shown once. Scopes: read, write, import.",
        },
      },
    },
  };
}
