import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { StagedRecord } from '../../store/orderSystemStore';
import { MAX_DEPTH, pointerPart, stringProblem, unstorableTextProblem } from '../../http/inputGuard';
import { mustBeOneOf } from '../../http/validateBody';
import type { TenantLanguages } from '../../../engine/domain/language';
import { KEY_SEPARATOR, type OrderSystemEntity, fieldOf, recordKey, splitKey } from './orderSystemEntities';

/**
 * One record of the order system as the API and `portal import` read it: validated
 * against the entity's schema (schemas/api/order-system-*.schema.json, the defaults filled in),
 * then named by its key, its version as a number and a hash of its content.
 *
 * Whatever the record's table would refuse is refused here first, as a problem with its pointer
 * (docs/going-live.md "Going live with your order system" 2): the schemas carry the tables' limits (char(10)
 * columns, check constraints, integer and numeric ranges, key lengths, dates PostgreSQL can hold),
 * and every string and field name is checked for what no text or jsonb column stores (NUL, an
 * unpaired surrogate). The import reads its lines with this too, so it reports them per line.
 */

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../schemas/api');
// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (a: Ajv) => void;
// useDefaults: a record is the whole row, and a field it leaves out is the column's default.
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
const versionValidators = new Map<string, ValidateFunction>();
const keyValidators = new Map<string, KeyValidator>();

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
      message: mustBeOneOf(params.allowedValues as unknown[]),
    };
  if (error.keyword === 'type') {
    const types = String(params.type).split(',');
    return {
      pointer: error.instancePath || '/',
      message: `must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}`,
    };
  }
  if (error.keyword === 'minProperties' && params.limit === 1)
    return { pointer: error.instancePath || '/', message: 'must not be empty' };
  if (error.keyword === 'minLength' && params.limit === 1)
    return { pointer: error.instancePath || '/', message: 'must not be empty' };
  if (error.keyword === 'pattern') {
    const pattern = String(params.pattern);
    const wanted = PATTERN_WORDS[pattern];
    if (wanted) return { pointer: error.instancePath || '/', message: `must be ${wanted}` };
  }
  return { pointer: error.instancePath || '/', message: error.message ?? 'is not valid' };
}

/** JSON's types in words: "must be a number or null", not "must be number,null". */
const TYPE_WORDS: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/**
 * The record schemas' patterns in words (docs/going-live.md names the fields so): a problem says
 * "must be 10 digits", not the regular expression. A pattern without words here keeps ajv's message.
 */
const PATTERN_WORDS: Record<string, string> = {
  '^[^~\\u0000-\\u001f\\u007f]+$': 'text without "~" and control characters',
  '^(19[7-9][0-9]|[2-9][0-9]{3})-': 'a date from 1970 on (YYYY-MM-DD)',
  '^[1-9][0-9]{3}-': 'a date (YYYY-MM-DD) of a year from 1000 on',
  '^[0-9]{10}$': '10 digits',
  '^[0-9]{2}$': '2 digits',
  '^-?[0-9]{1,10}(\\.[0-9]{1,2})?$':
    'an amount with at most 10 digits before the point and 2 after it, such as "12.50"',
  '^[0-9]{1,8}(\\.[0-9]{1,2})?$':
    'an amount of 0 or more with at most 8 digits before the point and 2 after it, such as "12.50"',
  '^-?[0-9]{1,10}(\\.[0-9]{1,4})?$':
    'a number with at most 10 digits before the point and 4 after it, such as "1.5"',
  '^[a-z]{2}-[A-Z]{2}$': 'a locale such as "de-DE" or "en-GB"',
  '^https?://[^\\s]+$': 'an http or https address, such as "https://shop.example/offer"',
  '^(https?://[^\\s]*|/([^/\\s][^\\s]*)?)$':
    'an http or https address, or a path on the portal\'s host such as "/files/issue-12.pdf"',
  '^[A-Z]{3}$': 'a currency code of 3 capital letters, such as "EUR"',
  '^[A-Z]{2}$': 'a country code of 2 capital letters (ISO 3166-1), such as "DE"',
  '^[^\\s@,;:<>()\\[\\]"\\\\]+@[^\\s@,;:<>()\\[\\]"\\\\]+$':
    'one e-mail address, such as "name@example.org", without a list or a name beside it',
  '^(?! )[^\\u0000-\\u001f\\u007f\\p{Changes_When_Lowercased}]*(?<! )$':
    'in lower case, without control characters or spaces at either end, as the address is kept',
};

// RFC 3339 §5.6 date-time, with what ajv-formats' `date-time` also takes: `t`, `z`, a space for
// the `T`, and an offset without its colon or minutes.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * The version as a number: integers as they are, RFC 3339 times as milliseconds since 1970 (NaN
 * for anything else). An entity's records should use one kind; a time compared with a counter is
 * compared as this number. Computed here rather than by Date.parse, which takes no leap second
 * (`23:59:60`, valid RFC 3339, counted as the next second like PostgreSQL does) and whose reading of
 * other text is the engine's own.
 */
export function versionNumber(version: unknown): number {
  if (typeof version === 'number') return version;
  const m = RFC3339.exec(String(version));
  if (!m) return NaN;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes] = m;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  at.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  at.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes ?? 0)) : 0;
  return at.getTime() - offset * 60_000;
}

/**
 * A version the tables can keep: order_system_versions.version is a bigint, and versions are
 * compared as JavaScript numbers, so a whole number from 0 to 2^53 − 1 (Number.isSafeInteger);
 * a time must come to one too (from 1970 on).
 */
const VERSION_RANGE =
  'must be a whole number from 0 to 9007199254740991 or an RFC 3339 time from 1970 to 9999';
/** The first moment of the year 10000 (UTC): a time version ends before it, whatever its offset said. */
const TIME_VERSION_END = Date.UTC(10000, 0, 1);
/** `version` as sent (a number, or a time as text) and as a number (versionNumber). */
const keepableVersion = (sent: unknown, version: number) =>
  Number.isSafeInteger(version) && version >= 0 && (typeof sent !== 'string' || version < TIME_VERSION_END);

function versionValidatorOf(entity: OrderSystemEntity): ValidateFunction {
  let validate = versionValidators.get(entity.name);
  if (!validate) {
    validate = ajv.compile((recordSchema(entity).properties as Record<string, object>).version);
    versionValidators.set(entity.name, validate);
  }
  return validate;
}

/**
 * The version of a delete (`?version=`), judged like a record's `version`: digits as a number,
 * anything else as an RFC 3339 time. Both must be versions the tables can keep.
 */
export function readVersion(
  entity: OrderSystemEntity,
  raw: unknown,
): { ok: true; version: number } | { ok: false; message: string } {
  if (typeof raw !== 'string' || raw === '')
    return { ok: false, message: 'is required: a whole number or an RFC 3339 time' };
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : raw;
  const version = versionNumber(value);
  if (!versionValidatorOf(entity)(value) || !keepableVersion(value, version))
    return { ok: false, message: VERSION_RANGE };
  return { ok: true, version };
}

/**
 * Problems of every string and field name in a record, of numbers JSON parsing could not keep as
 * sent (`1e400` became Infinity and was stored as null; a whole number past 2^53 lost its last
 * digits), and of nesting deeper than any record needs.
 */
function textProblems(
  value: unknown,
  pointer = '',
  depth = 0,
  problems: RecordProblem[] = [],
): RecordProblem[] {
  if (problems.length >= 50) return problems;
  if (typeof value === 'string') {
    const problem = unstorableTextProblem(value);
    if (problem) problems.push({ pointer: pointer || '/', message: problem });
    return problems;
  }
  // `version` has a range of its own, said in its own words (VERSION_RANGE).
  if (typeof value === 'number' && pointer !== '/version') {
    if (!Number.isFinite(value))
      problems.push({ pointer: pointer || '/', message: 'is a number too large to keep' });
    else if (Number.isInteger(value) && !Number.isSafeInteger(value))
      problems.push({
        pointer: pointer || '/',
        message: 'is a whole number too large to keep exactly: send it as a string',
      });
    return problems;
  }
  if (value === null || typeof value !== 'object') return problems;
  // A record nested deeper than this is not a record; hashing and storing it would recurse on.
  if (depth >= MAX_DEPTH) {
    problems.push({ pointer: pointer || '/', message: `must not nest deeper than ${MAX_DEPTH} levels` });
    return problems;
  }
  const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) {
    const name = typeof key === 'string' ? unstorableTextProblem(key) : undefined;
    if (name) problems.push({ pointer: pointer || '/', message: `has a field name that ${name}` });
    else textProblems(item, `${pointer}/${pointerPart(String(key))}`, depth + 1, problems);
  }
  return problems;
}

/** The validators of a key's fields, each its field's schema in the record's (one source of the limits). */
interface KeyValidator {
  fields: string[];
  parts: ValidateFunction[];
  maxLength: number;
  /** Whether the last field may hold a `~` (then a key with more `~` than fields is still one key). */
  lastTakesSeparator: boolean;
}

function keyValidatorOf(entity: OrderSystemEntity): KeyValidator {
  let found = keyValidators.get(entity.name);
  if (!found) {
    const properties = recordSchema(entity).properties as Record<string, { maxLength?: number }>;
    const fields = entity.key.map(fieldOf);
    const parts = fields.map((field) => ajv.compile(properties[field]));
    found = {
      fields,
      parts,
      maxLength: fields.reduce((sum, field) => sum + (properties[field].maxLength ?? 200), fields.length - 1),
      lastTakesSeparator: parts[parts.length - 1](`a${KEY_SEPARATOR}b`) === true,
    };
    keyValidators.set(entity.name, found);
  }
  return found;
}

/**
 * The path key's limits as JSON Schema, for the OpenAPI document: the number of `~` parts (a
 * pattern), and the length its fields' limits add up to. Each part's own limits are its field's in
 * the record schema; readKey checks them.
 */
export function keyShape(entity: OrderSystemEntity): { maxLength: number; pattern: string } {
  const validator = keyValidatorOf(entity);
  const part = '[^~]+';
  const parts = validator.fields.map((_, i) =>
    i === validator.fields.length - 1 && validator.lastTakesSeparator ? '.+' : part,
  );
  return { maxLength: validator.maxLength, pattern: `^${parts.join(KEY_SEPARATOR)}$` };
}

/**
 * A record's key as a path names it (`/operator/v1/<entity>/<key>`), checked like the record's key
 * fields are: the number of `~`-joined parts the entity's key has, each part valid under its
 * field's schema (so within its column's limits), and no NUL, surrogate or control character.
 */
export function readKey(
  entity: OrderSystemEntity,
  key: string,
): { ok: true; parts: string[] } | { ok: false; message: string } {
  const validator = keyValidatorOf(entity);
  const text = stringProblem(key, validator.maxLength, false);
  if (text) return { ok: false, message: text };
  const fields = validator.fields.length;
  const count = key.split(KEY_SEPARATOR).length;
  if (count < fields || (count > fields && !validator.lastTakesSeparator))
    return {
      ok: false,
      message:
        fields === 1
          ? `must be the record's ${validator.fields[0]}, without "${KEY_SEPARATOR}"`
          : `must be the record's ${validator.fields.join(KEY_SEPARATOR)}: ${fields} parts joined by "${KEY_SEPARATOR}", not ${count}`,
    };
  const parts = splitKey(entity, key);
  for (const [i, part] of parts.entries()) {
    const validate = validator.parts[i];
    if (!validate(part)) {
      const [error] = validate.errors ?? [];
      // In the words a record's field gets (PATTERN_WORDS), not as a regular expression.
      return {
        ok: false,
        message: `its ${validator.fields[i]} ${error ? problemOf(error).message : 'is not valid'}`,
      };
    }
  }
  return { ok: true, parts };
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

/**
 * The record with its children (a subscription's roles) in one order: they are rows of a table, a
 * set the GET answers in its own order, so the same record in another order is the same record
 * (docs/going-live.md "Versions": the same record again answers `unchanged`).
 */
function asSet(entity: OrderSystemEntity, content: Record<string, unknown>): Record<string, unknown> {
  const field = entity.children?.field;
  const list = field ? content[field] : undefined;
  if (!field || !Array.isArray(list) || list.length < 2) return content;
  const keyed = list.map((child) => [canonical(child), child] as const);
  if (keyed.every(([text], i) => i === 0 || keyed[i - 1][0] <= text)) return content;
  const sorted = keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, child]) => child as unknown);
  return { ...content, [field]: sorted };
}

/**
 * Rules between a record's fields that its schema cannot say (docs/going-live.md "Going live with
 * your order system" 2). An invoice's lines must add up to the amount booked: the invoice states
 * both, and EN 16931 refuses an invoice whose lines and total differ (BR-CO-10, BR-CO-15). A
 * subscription ends on or after the day it starts (the orders page would show it active and
 * "valid to" a day before it began), names a partner in a role once, and has one ordering party
 * (portal-core.md §3 and §6: its `orderingParty`; AG decides what the subscription may do).
 */
const RECORD_RULES: Partial<
  Record<OrderSystemEntity['name'], (record: Record<string, unknown>) => RecordProblem[]>
> = {
  payments: (record) => {
    const lines = record.lines as Array<{ quantity?: number; unitPrice: number | string }> | null | undefined;
    if (!lines || lines.length === 0) return [];
    const cents = lines.reduce(
      (sum, line) => sum + Math.round((line.quantity ?? 1) * Number(line.unitPrice) * 100),
      0,
    );
    const amountCents = Math.round(Number(record.amount) * 100);
    return cents === amountCents
      ? []
      : [
          {
            pointer: '/lines',
            message: `the lines add up to ${(cents / 100).toFixed(2)} (quantity × unitPrice, each rounded to the cent), the amount is ${(amountCents / 100).toFixed(2)}: send lines whose gross amounts add up to the amount`,
          },
        ];
  },
  subscriptions: (record) => {
    const problems: RecordProblem[] = [];
    const { validFrom, validTo } = record as { validFrom?: string | null; validTo?: string | null };
    // YYYY-MM-DD from the year 1000 on (the schema's pattern): as text in the order of the days.
    if (validFrom && validTo && validTo < validFrom)
      problems.push({ pointer: '/validTo', message: `must not be before validFrom (${validFrom})` });
    const roles = record.roles as Array<{ bpNumber: string; role: string }>;
    const orderingParty = roles.findIndex((r) => r.role === 'AG');
    for (const [i, { bpNumber, role }] of roles.entries()) {
      const same = roles.findIndex((r) => r.bpNumber === bpNumber && r.role === role);
      if (same < i)
        problems.push({
          pointer: `/roles/${i}`,
          message: `names ${bpNumber} as ${role} again (as /roles/${same} does): each partner once per role`,
        });
      else if (role === 'AG' && orderingParty < i)
        problems.push({
          pointer: `/roles/${i}`,
          message: `is a second ordering party (AG) beside ${roles[orderingParty].bpNumber} (/roles/${orderingParty}): a subscription has one ordering party`,
        });
    }
    return problems;
  },
};

/** How a text per locale is typed in the record schemas: an object whose keys are locales. */
const LOCALE_KEYS = '^[a-z]{2}-[A-Z]{2}$';

/**
 * A map of texts by locale in a record: where it is (its fields, `*` for every item of a list) and
 * whether it must be complete. `translations` lay the words of a record's other fields in other
 * languages over them, word by word (server/store/localizedDetails.ts; migration 040): a word
 * without a translation keeps the record's own words, so a translation may leave words, and
 * languages, out. Every other map by locale is the text itself (`descriptions`, `name`,
 * `offer.texts`): a screen in a language it lacks would show another language's.
 */
interface LocaleMap {
  path: string[];
  complete: boolean;
}
const localeMaps = new Map<string, LocaleMap[]>();

function localeMapsOf(entity: OrderSystemEntity): LocaleMap[] {
  let found = localeMaps.get(entity.name);
  if (!found) {
    const maps: LocaleMap[] = [];
    const walk = (schema: Record<string, unknown>, at: string[]) => {
      if ((schema.propertyNames as { pattern?: string } | undefined)?.pattern === LOCALE_KEYS) {
        maps.push({ path: at, complete: at[at.length - 1] !== 'translations' });
        return;
      }
      for (const [field, inner] of Object.entries((schema.properties ?? {}) as Record<string, object>))
        walk(inner as Record<string, unknown>, [...at, field]);
      if (schema.items && typeof schema.items === 'object')
        walk(schema.items as Record<string, unknown>, [...at, '*']);
    };
    walk(recordSchema(entity), []);
    found = maps;
    localeMaps.set(entity.name, found);
  }
  return found;
}

/** Calls `visit` with each map of texts by locale the record holds, its pointer and its kind. */
function forEachLocaleMap(
  entity: OrderSystemEntity,
  record: unknown,
  visit: (words: Record<string, unknown>, pointer: string, map: LocaleMap) => void,
): void {
  const walk = (value: unknown, map: LocaleMap, depth: number, pointer: string) => {
    if (value === null || typeof value !== 'object') return;
    if (depth === map.path.length) {
      if (!Array.isArray(value)) visit(value as Record<string, unknown>, pointer, map);
      return;
    }
    const step = map.path[depth];
    if (step === '*') {
      if (Array.isArray(value))
        for (const [i, item] of value.entries()) walk(item, map, depth + 1, `${pointer}/${i}`);
    } else if (!Array.isArray(value) && Object.hasOwn(value, step))
      walk((value as Record<string, unknown>)[step], map, depth + 1, `${pointer}/${pointerPart(step)}`);
  };
  for (const map of localeMapsOf(entity)) walk(record, map, 0, '');
}

/**
 * The texts by locale of a record against its tenant's languages (the rule of a rejection's reason,
 * server/operator/changes/changeFeed.ts): every screen shows the order system's words in its own
 * language, so a text is given for each of the tenant's locales, and a locale the tenant does not
 * offer could never be shown. A map the schema leaves optional may be left out; given, it is
 * complete. A translation may leave a locale out (LocaleMap), never name one the tenant lacks.
 */
function localeProblems(
  entity: OrderSystemEntity,
  record: unknown,
  languages: TenantLanguages,
): RecordProblem[] {
  const problems: RecordProblem[] = [];
  const offered = languages.locales.join(', ');
  forEachLocaleMap(entity, record, (words, pointer, map) => {
    if (map.complete)
      for (const locale of languages.locales)
        if (!Object.hasOwn(words, locale))
          problems.push({
            pointer: `${pointer}/${pointerPart(locale)}`,
            message: `is required: one text per locale of the tenant (${offered})`,
          });
    for (const given of Object.keys(words))
      if (!languages.locales.includes(given))
        problems.push({
          pointer: `${pointer}/${pointerPart(given)}`,
          message: `is not a locale of this tenant (${offered})`,
        });
  });
  return problems;
}

/**
 * A copy of the record with its texts by locale cut down to the given locales: the demo seed has
 * its words in every language it knows, and writes each tenant's records in that tenant's.
 */
export function keepLocales<T>(entity: OrderSystemEntity, record: T, locales: readonly string[]): T {
  if (localeMapsOf(entity).length === 0) return record;
  const copy = structuredClone(record);
  forEachLocaleMap(entity, copy, (words) => {
    for (const given of Object.keys(words)) if (!locales.includes(given)) delete words[given];
  });
  return copy;
}

/**
 * The languages of the tenant whose records are read (withTenantLanguages), for the import, which
 * reads its lines far from the request or command that names the tenant.
 */
const tenantLanguages = new AsyncLocalStorage<TenantLanguages>();

/**
 * Runs `read` (an import) with every record it reads checked against the tenant's languages, as
 * readRecord's `languages` would: each caller of the import that knows its tenant runs it so
 * (the import API, `portal import`, the demo seed).
 */
export function withTenantLanguages<T>(languages: TenantLanguages, read: () => T): T {
  return tenantLanguages.run(languages, read);
}

export type ReadRecord = { ok: true; staged: StagedRecord } | { ok: false; problems: RecordProblem[] };

/**
 * Validates a parsed record of the entity (filling in defaults) and stages it. With the tenant's
 * `languages` (those of withTenantLanguages when not given), its texts by locale are checked against
 * them too (localeProblems); without, they are not.
 */
export function readRecord(
  entity: OrderSystemEntity,
  value: unknown,
  line = 1,
  languages: TenantLanguages | undefined = tenantLanguages.getStore(),
): ReadRecord {
  const validate = validatorOf(entity);
  const problems = textProblems(value);
  if (!validate(value))
    // oneOf's branches repeat the same problem for `version`, and a failed `if`/`then` (an invoice
    // line's category and rate) is said by the `then` field's own problem; one line each is enough.
    problems.push(
      ...(validate.errors ?? [])
        .filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if')
        // A version neither branch takes is said by both: a number or a time.
        .map((error) =>
          error.instancePath === '/version'
            ? { pointer: '/version', message: VERSION_RANGE }
            : problemOf(error),
        ),
    );
  const record = value as Record<string, unknown>;
  if (problems.length === 0) problems.push(...(RECORD_RULES[entity.name]?.(record) ?? []));
  if (languages) problems.push(...localeProblems(entity, record, languages));
  const version = problems.length === 0 ? versionNumber(record.version) : 0;
  // A time the schema takes can still come to no keepable number: before 1970 or after 9999 (UTC) by
  // its offset (`9999-12-31T23:59:59-01:00` is in the year 10000).
  if (problems.length === 0 && !keepableVersion(record.version, version))
    problems.push({ pointer: '/version', message: VERSION_RANGE });
  if (problems.length > 0)
    return {
      ok: false,
      problems: problems.filter((p, i, all) => all.findIndex((q) => q.pointer === p.pointer) === i),
    };
  const { version: _version, ...content } = record;
  const hash = (value: Record<string, unknown>) =>
    createHash('sha256').update(canonical(value)).digest('base64url');
  const asSent = hash(content);
  const set = asSet(entity, content);
  const setHash = set === content ? asSent : hash(set);
  return {
    ok: true,
    staged: {
      line,
      key: recordKey(entity, record),
      version,
      hash: setHash,
      ...(setHash !== asSent ? { sentHash: asSent } : {}),
      record,
    },
  };
}
