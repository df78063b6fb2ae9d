import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

let purifier: ReturnType<typeof createDOMPurify> | undefined;

function purify(): ReturnType<typeof createDOMPurify> {
  if (!purifier) purifier = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
  return purifier;
}

/**
 * Strings already sanitized in this process. DOMPurify over jsdom costs milliseconds a string, and
 * tenants of one publisher group share much of their HTML (per-tenant work is only what
 * differs). The answer depends on the input alone, so a repeated string gets the same answer.
 */
const sanitized = new Map<string, string>();
const MEMO_LIMIT = 5000;

/** Removes scripts, event handlers and javascript: URLs from tenant HTML; keeps formatting and links. */
export function sanitizeHtml(html: string): string {
  // Text without markup or entities cannot carry any: no need to parse it.
  if (!/[<&]/.test(html)) return html;
  let clean = sanitized.get(html);
  if (clean === undefined) {
    clean = purify().sanitize(html, { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] });
    if (sanitized.size >= MEMO_LIMIT) sanitized.clear();
    sanitized.set(html, clean);
  }
  return clean;
}

interface SchemaNode {
  type?: string | string[];
  contentMediaType?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  $ref?: string;
  definitions?: Record<string, SchemaNode>;
}

/**
 * Sanitizes every string of a tenant whose schema property is marked
 * `"contentMediaType": "text/html"` (announcement, FAQ entries, widget texts, …), so the rule of
 * which fields are HTML lives once, in the schema. Returns a sanitized copy.
 */
export function sanitizeTenantHtml<T>(tenant: T, schema: SchemaNode): T {
  const resolve = (node: SchemaNode): SchemaNode => {
    if (node.$ref?.startsWith('#/definitions/'))
      return resolve(schema.definitions![node.$ref.slice('#/definitions/'.length)]);
    return node;
  };
  const walk = (value: unknown, rawNode: SchemaNode | undefined): unknown => {
    if (!rawNode) return value;
    const node = resolve(rawNode);
    if (typeof value === 'string') return node.contentMediaType === 'text/html' ? sanitizeHtml(value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item, node.items));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(value)) {
        const childNode =
          node.properties?.[key] ??
          (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
        out[key] = walk(child, childNode);
      }
      return out;
    }
    return value;
  };
  return walk(tenant, schema) as T;
}
