/**
 * Texts a tenant gives per locale (announcement, FAQ, menu links, opt-in and widget texts, … —
 * every setting whose schema is a per-locale map) that lack one of the tenant's offered locales.
 * Not an error: the portal then shows the other locale's text, but a
 * visitor reading English gets a German sentence in an English screen, so `portal validate` warns,
 * naming the setting. The rule finds the per-locale settings in the schema, so a setting added
 * later is checked without touching this file.
 */
import { loadSchema } from './schemaErrors';
import { escapePointerSegment } from './jsonSource';
import type { Problem } from './schemaErrors';

type SchemaNode = Record<string, unknown>;

const LANGUAGE_NAMES: Record<string, string> = { 'de-DE': 'German', 'en-GB': 'English' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A per-locale map: an object whose keys are locales (localizedText, localizedHtml, localizedLabel, …). */
function isLocalizedNode(node: SchemaNode): boolean {
  return isRecord(node.propertyNames) && node.propertyNames.$ref === '#/definitions/locale';
}

/** Offered locales missing from each per-locale text of the tenant, as warnings at the text. */
export function translationWarnings(
  tenant: Record<string, unknown>,
  schema: SchemaNode = loadSchema('tenant'),
): Problem[] {
  const offered = (Array.isArray(tenant.locales) ? tenant.locales : []).filter(
    (l): l is string => typeof l === 'string',
  );
  if (offered.length === 0) return [];
  const definitions = (schema.definitions ?? {}) as Record<string, SchemaNode>;
  const resolve = (node: SchemaNode): SchemaNode => {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/'))
      return resolve(definitions[ref.slice('#/definitions/'.length)] ?? {});
    return node;
  };
  const warnings: Problem[] = [];

  const walk = (value: unknown, rawNode: SchemaNode | undefined, pointer: string): void => {
    if (!rawNode) return;
    const node = resolve(rawNode);
    if (isLocalizedNode(node)) {
      if (!isRecord(value)) return; // a wrong type is the schema's error
      const given = offered.filter((locale) => typeof value[locale] === 'string' && value[locale] !== '');
      if (given.length === 0) return;
      for (const locale of offered) {
        if (given.includes(locale)) continue;
        warnings.push({
          pointer,
          at: 'value',
          message: `no ${locale} text although the tenant offers ${locale}: ${LANGUAGE_NAMES[locale] ?? locale} screens show the ${given[0]} text here`,
          hint: `add "${locale}": "…" next to "${given[0]}", or remove "${locale}" from locales`,
        });
      }
      return;
    }
    if (Array.isArray(value)) {
      const items = isRecord(node.items) ? (node.items as SchemaNode) : undefined;
      value.forEach((item, index) => walk(item, items, `${pointer}/${index}`));
      return;
    }
    if (!isRecord(value)) return;
    const properties = isRecord(node.properties) ? (node.properties as Record<string, SchemaNode>) : {};
    const additional = isRecord(node.additionalProperties)
      ? (node.additionalProperties as SchemaNode)
      : undefined;
    for (const [key, child] of Object.entries(value)) {
      // Text overrides fall back to the base text of their own locale: nothing is mixed there.
      if (pointer === '' && key === 'texts') continue;
      walk(child, properties[key] ?? additional, `${pointer}/${escapePointerSegment(key)}`);
    }
  };
  walk(tenant, schema, '');
  return warnings;
}
