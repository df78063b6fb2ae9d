import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import { CONTRAST_PAIRS, contrastRatio, resolveThemeTokens } from '../../engine/domain/theme';
import {
  loadTenantFiles,
  loadThemePresets,
  newTenantTemplate,
  validateTenantSource,
  formatIssue,
  tenantFilePaths,
} from '../../tenant';

type Schema = Record<string, unknown>;
const tenantSchema = JSON.parse(
  readFileSync(new URL('../../schemas/tenant.schema.json', import.meta.url), 'utf8'),
) as Schema;
const themeSchema = JSON.parse(
  readFileSync(new URL('../../schemas/theme.schema.json', import.meta.url), 'utf8'),
) as Schema;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every subschema with its path, following the keywords that hold schemas (not `default` data). */
function* subschemas(schema: Schema, path = '#'): Generator<[string, Schema]> {
  yield [path, schema];
  for (const key of ['properties', 'definitions']) {
    if (isSchema(schema[key])) {
      for (const [name, child] of Object.entries(schema[key] as Schema))
        if (isSchema(child)) yield* subschemas(child, `${path}/${key}/${name}`);
    }
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames']) {
    if (isSchema(schema[key])) yield* subschemas(schema[key] as Schema, `${path}/${key}`);
  }
}

function resolve(root: Schema, schema: Schema): Schema {
  return typeof schema.$ref === 'string'
    ? ((root.definitions as Schema)[schema.$ref.split('/').pop()!] as Schema)
    : schema;
}

describe.each([
  ['tenant', tenantSchema],
  ['theme', themeSchema],
])('%s.schema.json', (_name, schema) => {
  it('describes every property and every definition', () => {
    const undocumented: string[] = [];
    for (const [path, node] of subschemas(schema)) {
      for (const key of ['properties', 'definitions']) {
        for (const [name, child] of Object.entries((node[key] as Schema | undefined) ?? {})) {
          if (
            typeof (child as Schema).description !== 'string' ||
            ((child as Schema).description as string).length < 3
          )
            undocumented.push(`${path}/${key}/${name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('closes every object: additionalProperties false, or a map with constrained keys and values', () => {
    const open: string[] = [];
    for (const [path, node] of subschemas(schema)) {
      if (node.type !== 'object') continue;
      const closed =
        node.additionalProperties === false ||
        (isSchema(node.additionalProperties) && isSchema(node.propertyNames));
      if (!closed) open.push(path);
    }
    expect(open).toEqual([]);
  });

  it('has defaults that satisfy their own schema', () => {
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    ajv.addFormat('uri', true);
    const invalid: string[] = [];
    for (const [path, node] of subschemas(schema)) {
      if (!('default' in node)) continue;
      const check = ajv.compile({ definitions: schema.definitions ?? {}, ...node });
      if (!check(structuredClone(node.default))) invalid.push(`${path}: ${ajv.errorsText(check.errors)}`);
    }
    expect(invalid).toEqual([]);
  });
});

describe('tenant.schema.json', () => {
  it('lists exactly the feature flags of engine/domain/featureFlags.ts, in order', () => {
    expect((tenantSchema.definitions as Schema).featureFlag).toMatchObject({ enum: [...FEATURE_FLAGS] });
  });

  it('offers the same theme token overrides as a preset has tokens', () => {
    const overrides = (((tenantSchema.properties as Schema).theme as Schema).properties as Schema)
      .tokens as Schema;
    const groups = (schema: Schema) =>
      Object.fromEntries(
        Object.entries(schema.properties as Schema)
          .filter(([group]) => group !== 'name' && group !== '$schema')
          .map(([group, node]) => [group, Object.keys(resolve(schema, node as Schema).properties as Schema)]),
      );
    expect(groups(overrides)).toEqual(groups(themeSchema));
  });

  it('marks every HTML setting for the build-time sanitizer', () => {
    const html = [...subschemas(tenantSchema)]
      .filter(([, node]) => node.contentMediaType === 'text/html')
      .map(([path]) => path);
    // Every HTML setting is given per locale, so only localizedHtml holds HTML:
    // the named locales and any other locale of the schema's list.
    expect(html).toEqual([
      '#/definitions/localizedHtml/properties/de-DE',
      '#/definitions/localizedHtml/properties/en-GB',
      '#/definitions/localizedHtml/additionalProperties',
    ]);
  });
});

describe('demo tenants and theme presets', () => {
  it('validate without a single issue', () => {
    const { tenants, issues } = loadTenantFiles();
    expect(issues.map(formatIssue)).toEqual([]);
    expect(tenants.map((t) => t.id).sort()).toEqual([
      'gartenfreunde',
      'northern-review',
      'stadtkurier',
      'technikwelt',
    ]);
  });

  it('include one tenant with every feature on', () => {
    const { tenants } = loadTenantFiles();
    expect(tenants.find((t) => t.id === 'technikwelt')?.features).toEqual([...FEATURE_FLAGS]);
  });

  it('start with the schema pointer', () => {
    for (const file of tenantFilePaths()) {
      expect(JSON.parse(readFileSync(file, 'utf8')).$schema, file).toBe('../schemas/tenant.schema.json');
    }
  });

  it('ship at least two presets whose text colours and status dots all pass WCAG AA', () => {
    const issues: never[] = [];
    const presets = loadThemePresets(undefined, issues);
    expect(issues).toEqual([]);
    expect(Object.keys(presets).length).toBeGreaterThanOrEqual(2);
    for (const [name, preset] of Object.entries(presets)) {
      const { colors } = resolveThemeTokens(undefined, preset);
      for (const pair of CONTRAST_PAIRS) {
        expect(
          contrastRatio(colors[pair.foreground]!, colors[pair.background]!),
          `${name} ${pair.foreground}/${pair.background}`,
        ).toBeGreaterThanOrEqual(pair.minimum);
      }
    }
  });
});

describe('newTenantTemplate', () => {
  it('writes a tenant file that validates as it is', () => {
    const { tenant, issues } = validateTenantSource(
      'tenants/city-herald.json',
      newTenantTemplate('city-herald'),
    );
    expect(issues.map(formatIssue)).toEqual([]);
    expect(tenant).toMatchObject({
      id: 'city-herald',
      name: 'City Herald',
      hosts: ['city-herald.localhost'],
    });
  });

  it('refuses an id that is not kebab-case', () => {
    expect(() => newTenantTemplate('City_Herald')).toThrow('"City_Herald" is not a valid tenant id');
  });
});
