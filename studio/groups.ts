import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { LocaleTabsTemplate } from './widgets';

/**
 * The tenant settings grouped the way an operator thinks: brand and links, sign-in,
 * features, texts, and the flows (everything else, one section per flow). Each tab is a form of its
 * own over the part of schemas/tenant.schema.json it shows, so a tab stays quick to render.
 */
export interface StudioGroup {
  id: 'brand' | 'sign-in' | 'features' | 'texts' | 'flows';
  label: string;
  keys: readonly string[];
}

const BRAND = [
  'id',
  'name',
  'hosts',
  'defaultLocale',
  'locales',
  'theme',
  'logoUrl',
  'logoTargetUrl',
  'termsOfServiceUrl',
  'privacyPolicyUrl',
  'siteNoticeUrl',
  'contactUrl',
  'contact',
  'privacy',
  'demo',
  'externalNavigationLinks',
  'announcement',
  'coverImagePlaceholderUrl',
  'orderNumberExampleImageUrl',
  'buttons',
];
const SIGN_IN = ['login', 'embedding', 'ssoProfilePage', 'analytics'];
const FEATURES = ['features', 'publicationBlacklists'];
const TEXTS = ['texts'];

export function studioGroups(schema: RJSFSchema): StudioGroup[] {
  const named = new Set([...BRAND, ...SIGN_IN, ...FEATURES, ...TEXTS, '$schema']);
  const rest = Object.keys(schema.properties ?? {}).filter((key) => !named.has(key));
  return [
    { id: 'brand', label: 'Brand and links', keys: BRAND },
    { id: 'sign-in', label: 'Sign-in', keys: SIGN_IN },
    { id: 'features', label: 'Features', keys: FEATURES },
    { id: 'texts', label: 'Texts', keys: TEXTS },
    { id: 'flows', label: 'Flows', keys: rest },
  ];
}

/**
 * Labels are the keys of the file (`logoTargetUrl`, `primary`): the schema's titles name generated
 * TypeScript types ("ThemeColorValue"), which would label every colour alike. Descriptions stay.
 */
function titledByKey(schema: RJSFSchema): RJSFSchema {
  if (!schema || typeof schema !== 'object') return schema;
  const next: RJSFSchema = { ...schema };
  if (schema.properties) {
    next.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, property]) => [
        key,
        typeof property === 'object' ? { ...titledByKey(property as RJSFSchema), title: key } : property,
      ]),
    );
  }
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items))
    next.items = titledByKey(schema.items as RJSFSchema);
  return next;
}

/**
 * A setting that is either one value or one per locale (`"type": ["string", "object"]`, such as
 * orderNumberExampleImageUrl) as a choice of the two shapes: the form generator draws a list of
 * types as its first one, a text field, which shows an object as "[object Object]" and saves text
 * over it. The choice picks the shape the file holds and edits either.
 */
export function shapeChoice(property: RJSFSchema): RJSFSchema {
  const types = property.type;
  if (!Array.isArray(types) || !types.includes('string') || !types.includes('object')) return property;
  const { type: _type, format, properties, additionalProperties, minProperties, ...rest } = property;
  void _type;
  return {
    ...rest,
    anyOf: [
      { type: 'string', ...(format ? { format } : {}), title: 'one for every language' },
      { type: 'object', properties, additionalProperties, minProperties, title: 'one per language' },
    ],
  } as RJSFSchema;
}

/**
 * A setting given per locale (`propertyNames` the locale list) as one field per locale of the
 * schema's list and nothing else: the form generator offers an "add" button for any object that
 * takes additional properties, which here could only add a key the validator then refuses. A locale
 * added to the list (docs/operators.md "Languages: one at a time") gets its field without a change here.
 */
export function perLocaleFields(node: RJSFSchema, locales: readonly string[]): RJSFSchema {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const next: RJSFSchema = { ...node };
  if ((node.propertyNames as RJSFSchema | undefined)?.$ref === '#/definitions/locale') {
    const each: RJSFSchema =
      typeof node.additionalProperties === 'object' ? node.additionalProperties : { type: 'string' };
    next.properties = Object.fromEntries(
      locales.map((locale) => [locale, (node.properties?.[locale] as RJSFSchema | undefined) ?? each]),
    );
    next.additionalProperties = false;
    delete next.propertyNames;
  } else if (node.properties) {
    next.properties = Object.fromEntries(
      Object.entries(node.properties).map(([key, value]) => [
        key,
        perLocaleFields(value as RJSFSchema, locales),
      ]),
    );
  }
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items))
    next.items = perLocaleFields(node.items as RJSFSchema, locales);
  for (const key of ['anyOf', 'oneOf'] as const)
    if (Array.isArray(node[key]))
      next[key] = (node[key] as RJSFSchema[]).map((option) => perLocaleFields(option, locales));
  return next;
}

/** The part of the tenant schema one tab edits: its properties and the shared definitions. */
export function groupSchema(schema: RJSFSchema, group: StudioGroup): RJSFSchema {
  const locales = ((schema.definitions?.locale as RJSFSchema | undefined)?.enum ?? []) as string[];
  const properties = Object.fromEntries(
    group.keys
      .filter((key) => schema.properties?.[key])
      .map((key) => [key, shapeChoice(perLocaleFields(schema.properties![key] as RJSFSchema, locales))]),
  );
  const definitions = Object.fromEntries(
    Object.entries(schema.definitions ?? {}).map(([name, definition]) => [
      name,
      titledByKey(perLocaleFields(definition as RJSFSchema, locales)),
    ]),
  );
  return {
    type: 'object',
    definitions,
    properties: titledByKey({ properties } as RJSFSchema).properties,
    required: (schema.required ?? []).filter((key) => group.keys.includes(key)),
  } as RJSFSchema;
}

/** The tenant's settings that belong to a tab. */
export function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => key in data).map((key) => [key, data[key]]));
}

/**
 * Puts a tab's settings back into the whole tenant, keeping the file's key order: settings the tab
 * cleared are removed, new ones go at the end (the save writes them with minimal edits).
 */
export function mergeGroup(
  data: Record<string, unknown>,
  keys: readonly string[],
  part: Record<string, unknown>,
): Record<string, unknown> {
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!keys.includes(key)) next[key] = value;
    else if (part[key] !== undefined) next[key] = part[key];
  }
  for (const [key, value] of Object.entries(part))
    if (!(key in next) && value !== undefined) next[key] = value;
  return next;
}

const COLOR_KEYS = [
  'primary',
  'onPrimary',
  'background',
  'surface',
  'text',
  'mutedText',
  'border',
  'link',
  'success',
  'warning',
  'error',
  'info',
  'open',
];

/** Widgets that fit: colour pickers with contrast, HTML with a sanitized preview, feature switches. */
export function studioUiSchema(schema: RJSFSchema, groupId?: StudioGroup['id']): UiSchema {
  const html = { 'de-DE': { 'ui:widget': 'html' }, 'en-GB': { 'ui:widget': 'html' } };
  const colors = Object.fromEntries(COLOR_KEYS.map((key) => [key, { 'ui:widget': 'contrastColor' }]));
  const ui: UiSchema = {
    'ui:submitButtonOptions': { norender: true },
    // The features tab is one field: each switch with its publication blacklist beside it.
    ...(groupId === 'features' ? { 'ui:field': 'featureSwitches' } : {}),
    features: { 'ui:widget': 'checkboxes', 'ui:options': { inline: true } },
    theme: { tokens: { colors } },
    texts: { 'ui:ObjectFieldTemplate': LocaleTabsTemplate },
  };
  // Every LocalizedHtml setting gets the HTML widget, wherever it sits (one level below the root).
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const props = (property as RJSFSchema).properties ?? {};
    for (const [child, sub] of Object.entries(props)) {
      if ((sub as RJSFSchema).$ref === '#/definitions/localizedHtml')
        ui[key] = { ...(ui[key] as object), [child]: html };
    }
  }
  return ui;
}
