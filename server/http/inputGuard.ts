/**
 * The boundary check of every string that may reach the database: the
 * database refuses NUL bytes and unpaired UTF-16 surrogates, so a route that accepted them answered
 * 500 once its query ran. Checked here, once, before any route sees the request:
 *  - body (JSON, including uploaded file names and file data), query and path parameters;
 *  - NUL bytes, lone surrogates and other control characters (body text may keep tab and new line);
 *  - strings longer than any field of the API can be (the schemas in schemas/api hold each field's
 *    real limit; this is the ceiling for calls without one);
 *  - nesting deeper than any payload of the API, and `__proto__` / `constructor` / `prototype` keys
 *    (Object.assign over such a body would change an object's prototype);
 *  - path parameters of the wrong shape (ids are short runs of letters, digits, `.`, `_` and `-`).
 * Failures answer 400 `validation_failed` with every problem, each naming its field as
 * `body/<pointer>`, `query/<name>` or `params/<name>`, in the one error shape of server/http/errors.ts.
 */
import type { RequestHandler, Router } from 'express';
import { badRequest } from './errors';
import { recordRouteTemplate } from './routeTemplate';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Ceiling of one body string. Every body field has a tighter maxLength in its schema except the
 * contact form's file (portal-core.md §5, §9: 2 MB, sent base64-encoded: 2,796,204 characters).
 */
export const MAX_BODY_STRING = 10_000;
const LARGE_BODY_FIELDS: ReadonlyMap<string, number> = new Map([['/image/data', 2_796_204]]);
/** Query values: dates, page numbers, invoice numbers, OAuth `code` and `state` (kept well above those). */
export const MAX_QUERY_STRING = 2_048;
/** Path segments that are not ids (e.g. a future free-text parameter). */
export const MAX_PARAM_STRING = 200;
/** No payload of the API nests deeper than 4 levels; 32 leaves room without letting a parser or validator recurse for long. */
export const MAX_DEPTH = 32;
/** Keys one body may hold at most, all levels together (the largest request has about 20). */
const MAX_KEYS = 1_000;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Shapes of the path parameters (portal-core.md §3: subscription, purchase-order, pending-order and
 * payment ids, client ids and publication codes are order-system keys; download keys are base64url).
 * A parameter name not listed here gets the generic text rules only.
 */
export const PARAM_SHAPES: Readonly<Record<string, { pattern: RegExp; message: string }>> = {
  id: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  paymentId: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  recommendationId: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  // portal-core.md §9 "Business partner number: 10 digits".
  bpNumber: { pattern: /^[0-9]{10}$/, message: 'must be a business partner number: 10 digits' },
  clientId: { pattern: /^[A-Za-z0-9]{1,10}$/, message: 'must be a client id: 1 to 10 letters or digits' },
  publication: {
    pattern: /^[A-Za-z0-9_-]{1,20}$/,
    message: 'must be a publication code: 1 to 20 letters, digits, "_" or "-"',
  },
  key: { pattern: /^[A-Za-z0-9_-]{1,128}$/, message: 'must be a download key' },
  // account-flows.md §7 licence calls: a licence object's order number (the service answers 404 for one that is not 10 digits, §9) and a licence id.
  orderNumber: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  licenseId: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  // A licence-manager appointment (its confirm link).
  appointmentId: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    message: 'must be an id: 1 to 64 letters, digits, ".", "_" or "-"',
  },
  // An opt-in widget provider: a code of the tenant file (tenant.schema.json definitions.code).
  provider: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/,
    message: 'must be a provider code: 1 to 40 letters, digits, ".", "_" or "-"',
  },
  // An e-card template image (tenant eCard.templates[].previewImageUrl): a plain file name, never a path.
  file: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.(png|jpe?g|webp|svg)$/,
    message: 'must be an image file name such as birthday.png',
  },
};

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// NUL and the other C0 controls except tab, line feed and carriage return (messages keep lines), and DEL.
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Ids, query values and names are single-line: no control character at all.
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F]/;

/**
 * What no text or jsonb value of PostgreSQL can hold: a NUL byte (text refuses it, jsonb refuses
 * `\u0000`) and an unpaired UTF-16 surrogate (not UTF-8 at all; inside jsonb it is refused, in text
 * it would be stored as U+FFFD, silently not what was sent). Also what the operator API's records
 * are checked for, in every string and field name (server/operator/entities/orderSystemRecords.ts).
 */
export function unstorableTextProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text (it holds an unpaired surrogate)';
  return undefined;
}

/** The problem of one string, or undefined when it may go on. */
export function stringProblem(value: string, max: number, multiline: boolean): string | undefined {
  const unstorable = unstorableTextProblem(value);
  if (unstorable) return unstorable;
  if ((multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(value))
    return 'must not contain control characters';
  if (value.length > max) return `must be at most ${max} characters long`;
  return undefined;
}

/** A key as a JSON pointer's reference token (RFC 6901 §3: `~` as `~0`, `/` as `~1`). */
export const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Walks a parsed JSON body; collects every problem (up to a few dozen, enough to act on). */
export function bodyProblems(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let keys = 0;
  const visit = (value: unknown, pointer: string, depth: number): void => {
    if (problems.length >= 50) return;
    if (typeof value === 'string') {
      const problem = stringProblem(value, LARGE_BODY_FIELDS.get(pointer) ?? MAX_BODY_STRING, true);
      if (problem) problems.push({ field: `body${pointer || '/'}`, message: problem });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (depth >= MAX_DEPTH) {
      problems.push({
        field: `body${pointer || '/'}`,
        message: `must not nest deeper than ${MAX_DEPTH} levels`,
      });
      return;
    }
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    keys += entries.length;
    if (keys > MAX_KEYS) {
      problems.push({
        field: `body${pointer || '/'}`,
        message: `must not hold more than ${MAX_KEYS} values`,
      });
      return;
    }
    for (const [key, item] of entries) {
      const at = `${pointer}/${pointerPart(key)}`;
      if (FORBIDDEN_KEYS.has(key)) {
        problems.push({ field: `body${at}`, message: 'is not allowed' });
        continue;
      }
      const keyProblem = stringProblem(key, MAX_PARAM_STRING, false);
      if (keyProblem) {
        problems.push({ field: `body${pointer || '/'}`, message: `has a key that ${keyProblem}` });
        continue;
      }
      visit(item, at, depth + 1);
    }
  };
  visit(body, '', 0);
  return problems;
}

/** Express 5 parses the query with node:querystring: strings and arrays of strings. */
export function queryProblems(query: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [name, raw] of Object.entries(query)) {
    const field = `query/${name}`;
    const nameProblem = FORBIDDEN_KEYS.has(name)
      ? 'is not allowed'
      : stringProblem(name, MAX_PARAM_STRING, false);
    if (nameProblem) {
      problems.push({
        field: `query/${name.slice(0, 40).replace(CONTROL_IN_LINE, '?')}`,
        message: nameProblem,
      });
      continue;
    }
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const problem =
        typeof value === 'string' ? stringProblem(value, MAX_QUERY_STRING, false) : 'must be a plain value';
      if (problem) problems.push({ field, message: problem });
    }
  }
  return problems;
}

export function paramProblem(name: string, value: string): string | undefined {
  const generic = stringProblem(value, MAX_PARAM_STRING, false);
  if (generic) return generic;
  const shape = PARAM_SHAPES[name];
  return shape && !shape.pattern.test(value) ? shape.message : undefined;
}

const fail = (problems: FieldProblem[]) =>
  badRequest('validation_failed', 'The request is not valid.', problems);

/** Checks body and query of every API request (mounted after the JSON parser, before any route). */
export const guardRequestInput: RequestHandler = (req, _res, next) => {
  const problems = [
    ...queryProblems(req.query as Record<string, unknown>),
    ...(req.body === undefined ? [] : bodyProblems(req.body)),
  ];
  if (problems.length) throw fail(problems);
  next();
};

/** The parameter names used in a router's paths (`:id`, `:paymentId`, …), nested routers included. */
function paramNames(
  router: Router,
  names = new Set<string>(),
  routers = new Set<Router>(),
): { names: Set<string>; routers: Set<Router> } {
  routers.add(router);
  type Layer = { rawPath?: unknown; route?: { path: unknown }; handle?: unknown };
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    const paths = [layer.route?.path, layer.rawPath]
      .flat(Infinity as 1)
      .filter((p): p is string => typeof p === 'string');
    for (const path of paths) for (const match of path.matchAll(/[:*](\w+)/g)) names.add(match[1]);
    const nested = layer.handle as ((...args: unknown[]) => unknown) & { stack?: unknown };
    if (typeof nested === 'function' && Array.isArray(nested.stack))
      paramNames(nested as unknown as Router, names, routers);
  }
  return { names, routers };
}

/**
 * Checks the path parameters of every route of the given routers (and the routers nested in them)
 * before their handlers run: `router.param` for each name found, so a route added later is covered
 * without a list to keep. Call after the routers have their routes.
 */
export function guardRouteParams(routers: readonly Router[]): void {
  for (const root of routers) {
    const { names, routers: all } = paramNames(root);
    for (const router of all) {
      for (const name of names) {
        router.param(name, (req, _res, next, value: unknown) => {
          const problem =
            typeof value === 'string' ? paramProblem(name, value) : 'must be a single path segment';
          if (problem) {
            // A route matched: its refusal is counted and traced under the route's template.
            recordRouteTemplate(req);
            throw fail([{ field: `params/${name}`, message: problem }]);
          }
          next();
        });
      }
    }
  }
}
