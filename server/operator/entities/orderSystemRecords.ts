import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { StagedRecord } from '../../store/orderSystemStore';
import { type OrderSystemEntity, recordKey } from './orderSystemEntities';

/**
 * One record of the order system as the API and `portal import` read it (issue 25): validated
 * against the entity's schema (schemas/api/order-system-*.schema.json, the defaults filled in),
 * then named by its key, its version as a number and a hash of its content.
 */

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../schemas/api');
// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (a: Ajv) => void;
// useDefaults: a record is the whole row, and a field it leaves out is the column's default.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

export function recordSchema(entity: OrderSystemEntity): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${entity.schema}.schema.json`), 'utf8'));
}

function validatorOf(entity: OrderSystemEntity): ValidateFunction {
  let validate = validators.get(entity.name);
  if (!validate) {
    const schema = recordSchema(entity);
    delete schema.$schema;
    validate = ajv.compile(schema);
    validators.set(entity.name, validate);
  }
  return validate;
}

/** A problem of one record, as `portal validate` names a tenant file's: a JSON pointer and a message. */
export interface RecordProblem {
  pointer: string;
  message: string;
}

function problemOf(error: ErrorObject): RecordProblem {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required')
    return { pointer: `${error.instancePath}/${String(params.missingProperty)}`, message: 'is required' };
  if (error.keyword === 'additionalProperties')
    return {
      pointer: `${error.instancePath}/${String(params.additionalProperty)}`,
      message: 'is not a field of this record',
    };
  if (error.keyword === 'enum')
    return {
      pointer: error.instancePath || '/',
      message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    };
  return { pointer: error.instancePath || '/', message: error.message ?? 'is not valid' };
}

/**
 * The version as a number: integers as they are, RFC 3339 times as milliseconds since 1970. An
 * entity's records should use one kind; a time compared with a counter is compared as this number.
 */
export function versionNumber(version: unknown): number {
  return typeof version === 'number' ? version : Date.parse(String(version));
}

/** JSON with the keys of every object sorted: equal content, equal text, whatever the order of fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export type ReadRecord = { ok: true; staged: StagedRecord } | { ok: false; problems: RecordProblem[] };

/** Validates a parsed record of the entity (filling in defaults) and stages it. */
export function readRecord(entity: OrderSystemEntity, value: unknown, line = 1): ReadRecord {
  const validate = validatorOf(entity);
  if (!validate(value)) {
    // oneOf's branches repeat the same problem for `version`; one line each is enough.
    const problems = (validate.errors ?? [])
      .filter((error) => error.keyword !== 'oneOf')
      .map(problemOf)
      .filter((p, i, all) => all.findIndex((q) => q.pointer === p.pointer) === i);
    return { ok: false, problems };
  }
  const record = value as Record<string, unknown>;
  const { version, ...content } = record;
  return {
    ok: true,
    staged: {
      line,
      key: recordKey(entity, record),
      version: versionNumber(version),
      hash: createHash('sha256').update(canonical(content)).digest('base64url'),
      record,
    },
  };
}
