/**
 * How a part of the operator API describes its routes for the OpenAPI document (an
 * OpenAPI 3.1 document generated from `schemas/api`). Each part keeps a table of these next to
 * its routes (keys/whoamiOperations.ts, changes/changeFeedOperations.ts, …); operatorOpenApi.ts
 * turns them into the document, and tests/server/operator/operatorOpenApi.test.ts walks the parts'
 * Express routers so a route without a description (or a description without a route) fails.
 *
 * Shapes are named by the basename of their schema in schemas/api, never written out here: the
 * schemas stay the one source of every shape (CONVENTIONS.md rule 4).
 */
import type { OperatorScope } from '../../store/operatorKeyStore';

/** A path, query or header parameter; its schema is JSON Schema 2020-12 as OpenAPI 3.1 takes it. */
export interface OperatorParameter {
  name: string;
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
  example?: unknown;
}

/**
 * One refusal an operation answers besides the ones every call can get (401, 403, 429, 503) and
 * those of what it reads, which operatorOpenApi.ts adds by the operation's shape (a JSON body's
 * 400/413/415, a path parameter's 404, any input's 400 `validation_failed`).
 */
export interface OperatorErrorCase {
  /** `error.code` of the ErrorBody (schemas/api/error-body.schema.json). */
  code: string;
  /** When it is answered, for the reader of the document. */
  when: string;
}

export interface OperatorResponse {
  description: string;
  /** Basename of the answer's schema in schemas/api. */
  schema: string;
  /** Response headers by name. */
  headers?: Readonly<Record<string, { description: string; schema: Record<string, unknown> }>>;
}

export type OperatorRequestBody =
  | { mediaType: 'application/json'; schema: string; description: string }
  | {
      /** One record per line: OpenAPI 3.1 has no schema for a line (3.2's itemSchema), see operatorOpenApi.ts. */
      mediaType: 'application/x-ndjson';
      lineSchema: string;
      description: string;
      /** A short file, shown in the document. */
      example?: string;
    };

export interface OperatorOperation {
  method: 'get' | 'put' | 'post' | 'delete';
  /** OpenAPI path template under /operator/v1, e.g. `/changes/{eventId}/acknowledgement`. */
  path: string;
  operationId: string;
  tag: string;
  /** The key scope requireScope asks for; `any` for every valid key (whoami). */
  scope: OperatorScope | 'any';
  summary: string;
  description: string;
  pathParameters?: readonly OperatorParameter[];
  /** Basename of the schema in schemas/api whose properties are the query parameters. */
  querySchema?: string;
  queryParameters?: readonly OperatorParameter[];
  headerParameters?: readonly OperatorParameter[];
  body?: OperatorRequestBody;
  /** Answers by status (2xx). */
  responses: Readonly<Record<number, OperatorResponse>>;
  /** The operation's own refusals by status, each with its `error.code`s. */
  errors?: Readonly<Record<number, readonly OperatorErrorCase[]>>;
}
