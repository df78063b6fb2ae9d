/**
 * JSON Schema validation with ajv and the translation of ajv's errors into messages people can
 * act on (CONVENTIONS.md rule 5, after Docusaurus' configValidation): what is wrong, in the words
 * of the file, with a "did you mean" where a spelling is close and a hint how to fix it.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { featuresSwitchedBy } from '../engine/domain/featureCatalog';
import { featureCatalog } from './featureCatalog';
import { didYouMean } from './didYouMean';
import { escapePointerSegment } from './jsonSource';

/** A located problem before it gets a file, line and column. */
export interface Problem {
  pointer: string;
  at: 'key' | 'value';
  message: string;
  hint?: string;
}

type SchemaNode = Record<string, unknown>;

const SCHEMA_FILES = {
  tenant: new URL('../schemas/tenant.schema.json', import.meta.url),
  theme: new URL('../schemas/theme.schema.json', import.meta.url),
} as const;

export type SchemaName = keyof typeof SCHEMA_FILES;

/**
 * URLs the portal links to or loads: http(s) with a host, or a data: URI (inline logos). ajv-formats'
 * `uri` accepts things like "ftp:/x" or "mailto:x" that would only break a link in the portal.
 */
export function isPortalUrl(value: string): boolean {
  if (value.startsWith('data:'))
    return /^data:[a-z]+\/[a-z0-9.+-]+(;[a-z0-9.+-]+=[^;,\s]+)*(;base64)?,\S+$/i.test(value);
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

let ajv: Ajv | undefined;
const schemas = new Map<SchemaName, SchemaNode>();
const validators = new Map<SchemaName, ValidateFunction>();

function ajvInstance(): Ajv {
  if (!ajv) {
    // useDefaults: the validated copy becomes the resolved tenant; verbose: errors carry the
    // schema and data the messages below need; allowUnionTypes: a setting given once or per locale
    // (orderNumberExampleImageUrl: a URL or {"de-DE": …, "en-GB": …}) is one type list, whose
    // mistakes read like any other ("expected text but found number", an invalid URL, an unknown key).
    ajv = new Ajv({ allErrors: true, useDefaults: true, verbose: true, strict: true, allowUnionTypes: true });
    addFormats(ajv, ['hostname', 'email', 'date', 'date-time']);
    ajv.addFormat('uri', { type: 'string', validate: isPortalUrl });
    // json-schema-to-typescript's keyword for a hand-written TypeScript type; no validation meaning.
    ajv.addKeyword({ keyword: 'tsType', schemaType: 'string' });
  }
  return ajv;
}

export function loadSchema(name: SchemaName): SchemaNode {
  let schema = schemas.get(name);
  if (!schema) {
    schema = JSON.parse(readFileSync(SCHEMA_FILES[name], 'utf8')) as SchemaNode;
    schemas.set(name, schema);
  }
  return schema;
}

export function schemaValidator(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajvInstance().compile(loadSchema(name));
    validators.set(name, validate);
  }
  return validate;
}

/** The noun for values of a named definition: `unknown feature "x"` instead of `invalid value "x"`. */
const ENUM_NOUNS: Record<string, string> = {
  featureFlag: 'feature',
  locale: 'locale',
  paymentMethodKind: 'payment method',
  messageVariant: 'variant',
  businessPartnerRole: 'business partner role',
  accountEventType: 'event type',
};

/**
 * Hints for enums beyond "use one of: …" (the valid values, never a source file to read).
 * Feature flags list every flag and, for those that switch screens, which features they switch.
 */
const ENUM_HINTS: Record<string, (allowed: string[]) => string> = {
  featureFlag: featureFlagHint,
};

/**
 * Every flag of portal-core.md §6 (the schema's enum), with the features each switches from the
 * feature catalog (the registry's facts, schemas/generated/feature-catalog.json), so the hint follows
 * the features as they are added; flags without features gate actions and details on the
 * subscription and orders pages.
 */
function featureFlagHint(allowed: string[]): string {
  const catalog = featureCatalog();
  const described = allowed.map((flag) => {
    const features = featuresSwitchedBy(catalog, flag).filter((id) => id !== flag);
    return features.length ? `${flag} (${features.join(', ')})` : flag;
  });
  return `use one of: ${described.join(', ')}`;
}

function enumHint(definition: string | undefined, allowed: string[]): string {
  const special = definition === undefined ? undefined : ENUM_HINTS[definition];
  return special ? special(allowed) : `use one of: ${allowed.join(', ')}`;
}

/**
 * The definition an error comes from: by its schema path, or, for a definition ajv compiles apart
 * (one holding a $ref, as the per-locale maps do for their locale keys, reports paths from its own
 * root), by the title of the schema that failed ("LocalizedText" → localizedText).
 */
function definitionOf(schemaPath: string, parentSchema?: unknown): string | undefined {
  const byPath = /#\/definitions\/([^/]+)\//.exec(schemaPath)?.[1];
  if (byPath || !schemaPath.startsWith('#/')) return byPath;
  const title = (parentSchema as SchemaNode | undefined)?.title;
  return typeof title === 'string' ? title.charAt(0).toLowerCase() + title.slice(1) : undefined;
}

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…"` : text;
}

function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${quote(value)}`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const EXPECTED: Record<string, { noun: string; hint: string }> = {
  boolean: { noun: 'true or false', hint: 'write true or false without quotes' },
  integer: { noun: 'a whole number', hint: 'write the number without quotes, for example 30' },
  number: { noun: 'a number', hint: 'write the number without quotes, for example 4.5' },
  string: { noun: 'a string', hint: 'put the value in double quotes' },
  array: { noun: 'a list', hint: 'write a list in square brackets, for example ["…"]' },
  object: { noun: 'an object', hint: 'write an object in curly braces, for example {"…": …}' },
  null: { noun: 'null', hint: 'write null' },
};

const LOCALIZED = new Set(['localizedText', 'localizedHtml', 'localizedLabel']);
const LOCALIZED_HINT = 'write one text per locale, for example {"de-DE": "…", "en-GB": "…"}';

function lastSegment(pointer: string): string {
  const segments = pointer.split('/');
  return segments[segments.length - 1] ?? '';
}

function descriptionOf(node: unknown): string | undefined {
  return node && typeof node === 'object' && typeof (node as SchemaNode).description === 'string'
    ? ((node as SchemaNode).description as string)
    : undefined;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * What is wrong with a tenant script's URL (`definitions.scriptUrl`): the page's Content-Security-Policy
 * names it as a source (portal-core.md §2 "Contact"), so it must be https, name one file, and hold
 * nothing that would end or split a directive of the header.
 */
function scriptUrlMistake(value: string): { message: string; hint: string } {
  const example = 'for example https://chat.example.com/widget.js';
  if (!/^https:\/\//i.test(value))
    return {
      message: `${quote(value)} is not an https URL: the page's Content-Security-Policy allows a tenant script only over https`,
      hint: `write the script's https URL, ${example}`,
    };
  if (/[\s"',;]/.test(value))
    return {
      message: `${quote(value)} holds a space, quote, comma or semicolon, which cannot stand in the page's Content-Security-Policy`,
      hint: 'percent-encode them: %20, %22, %27, %2C, %3B',
    };
  if (/^https:\/\/[^/?#]*([?#].*)?$/i.test(value) || /\/([?#].*)?$/.test(value))
    return {
      message: `${quote(value)} names no script file: the page's Content-Security-Policy would allow a whole site or folder`,
      hint: `give the path of the script file itself, ${example}`,
    };
  return {
    message: `${quote(value)} is not a script URL the page's Content-Security-Policy can name`,
    hint: 'use https://, a host name, an optional port and the path of the file, optionally a query; no user name, no #fragment, no empty path segment (//), characters other than letters, digits and ._~!$&()*+=:@- percent-encoded',
  };
}

/** One ajv error as a problem, or undefined for errors that only repeat another one. */
function describe(error: ErrorObject): Problem | undefined {
  const params = error.params as Record<string, unknown>;
  const definition = definitionOf(error.schemaPath, error.parentSchema);
  const description = descriptionOf(error.parentSchema);
  const base = error.instancePath;

  // A bad property name (propertyNames): ajv reports the inner keyword with `propertyName` set,
  // then a summarising "propertyNames" error that adds nothing.
  if (error.keyword === 'propertyNames') return undefined;
  if (error.propertyName !== undefined) {
    const name = error.propertyName;
    const pointer = `${base}/${escapePointerSegment(name)}`;
    if (error.keyword === 'enum') {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const noun = (definition && ENUM_NOUNS[definition]) ?? 'key';
      return {
        pointer,
        at: 'key',
        message: `unknown ${noun} "${name}"${didYouMean(name, allowed)}`,
        hint: enumHint(definition, allowed),
      };
    }
    return { pointer, at: 'key', message: `invalid key "${name}"`, hint: description };
  }

  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const allowed = Object.keys(((error.parentSchema as SchemaNode)?.properties as SchemaNode) ?? {});
      const suggestion = didYouMean(name, allowed);
      // Every setting allowed at this place, however many, instead of the schema file's name.
      const list = `allowed here: ${allowed.join(', ')}`;
      return {
        pointer: `${base}/${escapePointerSegment(name)}`,
        at: 'key',
        message: `unknown property "${name}"${suggestion}`,
        hint: suggestion ? `rename it, or remove it (${list})` : `remove it (${list})`,
      };
    }
    case 'required': {
      const name = String(params.missingProperty);
      const property = ((error.parentSchema as SchemaNode)?.properties as SchemaNode | undefined)?.[name];
      const what = descriptionOf(property);
      // At the setting that is missing (its place in the file is its parent's, offsetOf): the
      // studio shows the problem at that field's input, not over the whole section.
      return {
        pointer: `${base}/${escapePointerSegment(name)}`,
        at: 'key',
        message: `missing required property "${name}"`,
        hint: `add "${name}"${what ? ` (${what[0].toLowerCase()}${what.slice(1).replace(/\.$/, '')})` : ''}`,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const value = String(error.data);
      const noun = definition && ENUM_NOUNS[definition];
      const prefix = noun ? `unknown ${noun} ${quote(error.data)}` : `invalid value ${quote(error.data)}`;
      return {
        pointer: base,
        at: 'value',
        message: `${prefix}${typeof error.data === 'string' ? didYouMean(value, allowed) : ''}`,
        hint: enumHint(definition, allowed),
      };
    }
    case 'type': {
      const expected = String(params.type).split(',')[0];
      const known = EXPECTED[expected] ?? { noun: expected, hint: description ?? '' };
      const localized = definition !== undefined && LOCALIZED.has(definition) && expected === 'object';
      return {
        pointer: base,
        at: 'value',
        message: `expected ${known.noun} but found ${describeFound(error.data)}`,
        hint: localized ? LOCALIZED_HINT : known.hint,
      };
    }
    case 'format': {
      const value = String(error.data);
      if (params.format === 'uri') {
        if (value.startsWith('data:')) {
          return {
            pointer: base,
            at: 'value',
            message: `${quote(value)} is not a valid data URI`,
            hint: 'write data:<type>[;base64],<data> and percent-encode spaces and special characters (%20, %3C, %3E, %23) or use base64',
          };
        }
        // A value with a scheme has its protocol: what is wrong is the rest, or the scheme itself.
        if (/^[a-z][a-z0-9+.-]*:/i.test(value))
          return {
            pointer: base,
            at: 'value',
            message: `${quote(value)} is not a valid URL`,
            hint: description ?? 'for example https://example.com',
          };
        return {
          pointer: base,
          at: 'value',
          message: `${quote(value)} does not look like a valid URL. Make sure it has a protocol; for example https://example.com`,
          // A host (and path) without its protocol, the usual slip: the fix is the value with it.
          hint: /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(\/\S*)?$/.test(value)
            ? `write https://${value}`
            : 'write the whole address with its protocol, for example https://example.com',
        };
      }
      if (params.format === 'email') {
        return {
          pointer: base,
          at: 'value',
          message: `${quote(value)} does not look like a valid e-mail address; for example service@example.com`,
        };
      }
      if (params.format === 'hostname') {
        return {
          pointer: base,
          at: 'value',
          message: `${quote(value)} is not a valid host name`,
          hint: 'write only the host, for example portal.example.com (no protocol, port or path)',
        };
      }
      return {
        pointer: base,
        at: 'value',
        message: `${quote(value)} is not a valid ${String(params.format)}`,
        hint: description,
      };
    }
    case 'pattern':
      if (definition === 'scriptUrl')
        return { pointer: base, at: 'value', ...scriptUrlMistake(String(error.data)) };
      return {
        pointer: base,
        at: 'value',
        message: `${quote(error.data)} ${PATTERN_MISTAKES[String(params.pattern)] ?? 'is not in the expected format'}`,
        hint: description,
      };
    case 'minimum':
    case 'exclusiveMinimum':
      return {
        pointer: base,
        at: 'value',
        message: `${quote(error.data)} is too small; the minimum is ${String(params.limit)}`,
        hint: description,
      };
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        pointer: base,
        at: 'value',
        message: `${quote(error.data)} is too large; the maximum is ${String(params.limit)}`,
        hint: description,
      };
    case 'minLength':
      return Number(params.limit) === 1
        ? { pointer: base, at: 'value', message: 'must not be empty', hint: description }
        : {
            pointer: base,
            at: 'value',
            message: `${quote(error.data)} is too short; use at least ${plural(Number(params.limit), 'character', 'characters')}`,
            hint: description,
          };
    case 'maxLength':
      return {
        pointer: base,
        at: 'value',
        message: `too long (${String(error.data).length} characters); use at most ${plural(Number(params.limit), 'character', 'characters')}`,
        hint: description,
      };
    case 'minItems':
      return {
        pointer: base,
        at: 'value',
        message: `needs at least ${plural(Number(params.limit), 'entry', 'entries')}`,
        hint: description,
      };
    case 'maxItems':
      return {
        pointer: base,
        at: 'value',
        message: `has too many entries; at most ${Number(params.limit)} are allowed`,
        hint: description,
      };
    case 'minProperties':
      return definition !== undefined && LOCALIZED.has(definition)
        ? {
            pointer: base,
            at: 'value',
            message: 'needs a text for at least one locale',
            hint: LOCALIZED_HINT,
          }
        : {
            pointer: base,
            at: 'value',
            message: `needs at least ${plural(Number(params.limit), 'property', 'properties')}`,
            hint: description,
          };
    case 'uniqueItems': {
      const later = Math.max(Number(params.i), Number(params.j));
      const earlier = Math.min(Number(params.i), Number(params.j));
      const items = error.data as unknown[];
      const noun = lastSegment(base) === 'features' ? 'feature ' : '';
      return {
        pointer: `${base}/${later}`,
        at: 'value',
        message: `${noun}${quote(items[later])} is listed twice (also at ${base}/${earlier})`,
        hint: 'remove one of them',
      };
    }
    default:
      return {
        pointer: base,
        at: 'value',
        message: error.message ?? `invalid (${error.keyword})`,
        hint: description,
      };
  }
}

/**
 * Validates `data` in place (defaults are filled in) and returns its problems. ajv may report the
 * same place twice (for example a value failing both pattern and minLength); both are kept since
 * each says something different, but exact repeats are dropped.
 */
export function validateAgainstSchema(schemaName: SchemaName, data: unknown): Problem[] {
  const validate = schemaValidator(schemaName);
  if (validate(data)) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  // A URL its setting's pattern refuses may fail the uri format too; one of the two is said: for a
  // value without a protocol ("www.example.com") the format's "make sure it has a protocol", for
  // one with the wrong protocol (an http logo, a javascript: link) the pattern's, whose hint says
  // what the setting takes.
  const errors = validate.errors ?? [];
  const failed = (keyword: string) =>
    new Set(errors.filter((error) => error.keyword === keyword).map((error) => error.instancePath));
  const patternRefused = failed('pattern');
  const formatRefused = failed('format');
  const hasScheme = (value: unknown) => typeof value === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(value);
  for (const error of errors) {
    const both = patternRefused.has(error.instancePath) && formatRefused.has(error.instancePath);
    if (both && error.keyword === 'format' && hasScheme(error.data)) continue;
    if (both && error.keyword === 'pattern' && !hasScheme(error.data)) continue;
    const problem = describe(error);
    if (!problem) continue;
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * What a value that misses one of the schemas' common patterns is, said in the message itself (the
 * hint then explains the field): "is not a colour …", not only "is not in the expected format".
 */
const PATTERN_MISTAKES: Record<string, string> = {
  '^#[0-9a-fA-F]{6}$': 'is not a colour written #rrggbb (six hexadecimal digits)',
  '^(https://|data:image/)': 'is not an https URL or a data:image/ URI',
  '^https?://': 'is not an http or https address',
  '^https://\\S+$': 'is not an https URL',
};
