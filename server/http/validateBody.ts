import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RequestHandler, Response } from 'express';
import { badRequest } from './errors';
import { isOneLineText, isSignInAddress } from '../../engine/domain/fieldRules';

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/api');
// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (a: Ajv) => void;
/**
 * The schemas' own formats: `one-line`, a name or holder without line breaks or control
 * characters; and `email`, ajv-formats' own replaced by the sign-in address rule the screens check
 * (isSignInAddress), so every form that takes a login address takes the same ones.
 */
function addPortalFormats(ajv: Ajv): void {
  addFormats(ajv);
  ajv.addFormat('one-line', { type: 'string', validate: (value: string) => isOneLineText(value) });
  ajv.addFormat('email', { type: 'string', validate: (value: string) => isSignInAddress(value) });
}
// A `oneOf` whose shapes a constant tells apart (the acknowledgement's `status`) names it as its
// `discriminator`: ajv then checks the body against the shape its constant names alone, so the
// problems are that shape's, its `$ref`s' included (verbose: the refused constant's values are
// read from the schema).
const bodies = new Ajv({ allErrors: true, strict: true, discriminator: true, verbose: true });
addPortalFormats(bodies);
// Query values arrive as strings: numbers are coerced ("2" -> 2) and defaults filled in.
const queries = new Ajv({ allErrors: true, strict: true, coerceTypes: true, useDefaults: true });
addPortalFormats(queries);
const compiled = new Map<string, ValidateFunction>();
// Every number a query takes is a whole one (a page, a limit, a sequence number): no sign on a zero,
// no leading zeros, no fraction ("-0", "007", "1.0" read as numbers but name none).
const WHOLE_DECIMAL = /^(0|-?[1-9][0-9]*)$/;

function validatorFor(ajv: Ajv, name: string): ValidateFunction {
  const key = `${ajv === queries ? 'query' : 'body'}:${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8'));
    delete schema.$schema;
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * An enum's problem with its values, not ajv's "must be equal to one of the allowed values": the
 * caller cannot see the schema. Request bodies and the order system's records say it alike.
 */
export function mustBeOneOf(allowedValues: readonly unknown[]): string {
  return `must be one of ${allowedValues.map((value) => JSON.stringify(value)).join(', ')}`;
}

function describe(error: ErrorObject): { field: string; message: string } {
  const field = error.instancePath || (error.params as { missingProperty?: string }).missingProperty || '/';
  if (error.keyword === 'additionalProperties') {
    return {
      field: `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`,
      message: 'is not allowed',
    };
  }
  // Under its parent's pointer: a date missing in `issue` is /issue/dateOfFirstSale.
  if (error.keyword === 'required')
    return {
      field: `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`,
      message: 'is required',
    };
  if (error.keyword === 'enum')
    return { field, message: mustBeOneOf((error.params as { allowedValues: unknown[] }).allowedValues) };
  if (error.keyword === 'propertyNames') {
    const name = String((error.params as { propertyName: string }).propertyName);
    const pattern = (error.schema as { pattern?: string } | undefined)?.pattern;
    return {
      field: `${error.instancePath}/${name}`,
      message:
        pattern === '^[a-z]{2}-[A-Z]{2}$'
          ? 'is not a locale such as "de-DE" or "en-GB"'
          : 'is not a valid name here',
    };
  }
  if (
    (error.keyword === 'minLength' || error.keyword === 'minProperties') &&
    (error.params as { limit: number }).limit === 1
  )
    return { field, message: 'must not be empty' };
  if (error.keyword === 'discriminator') {
    const { tag, tagValue } = error.params as { tag: string; tagValue: unknown };
    if (tagValue === undefined) return { field: `${error.instancePath}/${tag}`, message: 'is required' };
    const shapes = ((error.parentSchema as { oneOf?: unknown[] } | undefined)?.oneOf ?? []) as Array<{
      properties?: Record<string, { const?: unknown; enum?: unknown[] }>;
    }>;
    const values = shapes.flatMap((shape) => {
      const property = shape.properties?.[tag];
      return property?.const !== undefined ? [property.const] : (property?.enum ?? []);
    });
    return { field: `${error.instancePath}/${tag}`, message: mustBeOneOf(values) };
  }
  if (error.keyword === 'const')
    return {
      field,
      message: `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`,
    };
  return { field, message: error.message ?? 'is invalid' };
}

/**
 * A body that fits none of a `oneOf`'s shapes gets every shape's errors from ajv, and "must match
 * exactly one schema in oneOf" besides: a rejection without its reason read `/status must be
 * "confirmed"`, `/reason is required` and that line. The shapes are told apart by a constant (the
 * acknowledgement's `status`): the errors of the shape whose constant the body has are its
 * problems; when it has none of them, the one problem is that constant's field, with its values.
 */
function narrowOneOf(errors: readonly ErrorObject[]): ErrorObject[] {
  let narrowed = [...errors];
  for (const oneOf of errors.filter((e) => e.keyword === 'oneOf')) {
    const prefix = `${oneOf.schemaPath}/`;
    const branches = new Map<string, ErrorObject[]>();
    for (const error of narrowed) {
      if (!error.schemaPath.startsWith(prefix)) continue;
      const branch = error.schemaPath.slice(prefix.length).split('/')[0];
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const tags = [...branches.values()].map((list) => list.find((e) => e.keyword === 'const'));
    if (branches.size < 2) continue;
    const fitting = [...branches.values()].filter((list) => !list.some((e) => e.keyword === 'const'));
    const others = new Set([oneOf, ...[...branches.values()].flat()]);
    if (fitting.length > 1) {
      // No constant told the shapes apart (the body has none): their own problems say what is missing.
      narrowed = narrowed.filter((e) => e !== oneOf);
    } else if (fitting.length === 1) {
      const kept = new Set(fitting[0]);
      narrowed = narrowed.filter((e) => !others.has(e) || kept.has(e));
    } else if (fitting.length === 0 && tags.every((tag) => tag?.instancePath === tags[0]?.instancePath)) {
      const allowedValues = tags.map((tag) => (tag!.params as { allowedValue: unknown }).allowedValue);
      narrowed = [
        ...narrowed.filter((e) => !others.has(e)),
        { ...tags[0]!, keyword: 'enum', params: { allowedValues } },
      ];
    }
  }
  return narrowed;
}

/** Each problem once: two shapes of a `oneOf` both missing the same field say it twice. */
function uniqueProblems(problems: Array<{ field: string; message: string }>) {
  const seen = new Set<string>();
  return problems.filter(({ field, message }) => {
    const key = `${field}\n${message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Validates req.body against `schemas/api/<name>.schema.json` (CONVENTIONS.md rule 4) and answers
 * 400 `validation_failed` listing every problem. The validated body stays on req.body.
 */
export function validateBody(name: string): RequestHandler {
  const validate = validatorFor(bodies, name);
  return (req, _res, next) => {
    // A request without a JSON body (none, or another media type, which the JSON parser leaves
    // alone) is checked, and handed on, as the empty object: the routes read req.body's fields.
    req.body ??= {};
    if (!validate(req.body)) {
      throw badRequest(
        'validation_failed',
        'The request is not valid.',
        uniqueProblems(
          narrowOneOf(
            // A name propertyNames refused is one problem (described with it), not also its pattern's.
            (validate.errors ?? []).filter((error) => error.propertyName === undefined),
          ).map(describe),
        ),
      );
    }
    next();
  };
}

/**
 * Validates the query string against `schemas/api/<name>.schema.json` (numbers coerced, defaults
 * applied) and answers 400 `validation_failed` listing every problem, fields named `query/<name>`.
 * Express 5's req.query is read-only: the validated copy is read with validQuery(res).
 */
export function validateQuery(name: string): RequestHandler {
  const validate = validatorFor(queries, name);
  return (req, res, next) => {
    // An empty value counts as absent (a form sends `externalDocumentNumber=` when it has none).
    const query: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(req.query)) if (value !== '') query[key] = value;
    const problems = validate(query)
      ? []
      : (validate.errors ?? []).map((error) => {
          const { field, message } = describe(error);
          return { field: `query${field === '/' ? '' : field}`, message };
        });
    // Ajv coerces "1e309" and "Infinity" to Infinity and then lets it past `maximum`: a number that
    // is not finite is no page, limit or amount.
    // Ajv also reads whatever JavaScript's Number() reads ("0x10", "0b1", " 2 ", "1e2"): a number in
    // a query is written in decimal digits, as the reference shows them, or it is refused.
    for (const [key, value] of Object.entries(query))
      if (typeof value === 'number' && !Number.isFinite(value))
        problems.push({ field: `query/${key}`, message: 'must be a finite number' });
      else if (
        typeof value === 'number' &&
        typeof req.query[key] === 'string' &&
        !WHOLE_DECIMAL.test(req.query[key])
      )
        problems.push({ field: `query/${key}`, message: 'must be written in decimal digits' });
    if (problems.length > 0) throw badRequest('validation_failed', 'The request is not valid.', problems);
    res.locals.validQuery = query;
    next();
  };
}

/** The query validateQuery checked, typed by the schema's generated type. */
export function validQuery<T>(res: Response): T {
  if (!res.locals.validQuery) throw new Error('validQuery used on a route without validateQuery');
  return res.locals.validQuery as T;
}
