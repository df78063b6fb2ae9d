import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { RequestHandler } from 'express';
import { badRequest } from './errors';

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas/api');
const ajv = new Ajv({ allErrors: true, strict: true });
// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (a: Ajv) => void;
addFormats(ajv);
const compiled = new Map<string, ValidateFunction>();

function validatorFor(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIR, `${name}.schema.json`), 'utf8'));
    delete schema.$schema;
    validate = ajv.compile(schema);
    compiled.set(name, validate);
  }
  return validate;
}

function describe(error: ErrorObject): { field: string; message: string } {
  const field = error.instancePath || (error.params as { missingProperty?: string }).missingProperty || '/';
  if (error.keyword === 'additionalProperties') {
    return { field: `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`, message: 'is not allowed' };
  }
  if (error.keyword === 'required') return { field: `/${(error.params as { missingProperty: string }).missingProperty}`, message: 'is required' };
  return { field, message: error.message ?? 'is invalid' };
}

/**
 * Validates req.body against `schemas/api/<name>.schema.json` (CONVENTIONS.md rule 4) and answers
 * 400 `validation_failed` listing every problem. The validated body stays on req.body.
 */
export function validateBody(name: string): RequestHandler {
  const validate = validatorFor(name);
  return (req, _res, next) => {
    if (!validate(req.body ?? {})) {
      throw badRequest('validation_failed', 'The request is not valid.', (validate.errors ?? []).map(describe));
    }
    next();
  };
}
