/**
 * Text that goes into XML (the e-invoices and the PDF's XMP metadata). XML 1.0 allows no C0
 * control character but tab, line feed and carriage return, no U+FFFE or U+FFFF and no unpaired
 * surrogate: a record of the order system may hold one (an operator import keeps what the order
 * system wrote, docs/going-live.md), and an XRechnung with one is no XML a recipient can read. They
 * carry nothing a reader sees, so they are left out.
 */
const FORBIDDEN_IN_XML =
  // eslint-disable-next-line no-control-regex -- the control characters are what this removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** The text without the characters XML forbids. */
export function xmlText(text: string): string {
  return text.replace(FORBIDDEN_IN_XML, '');
}

/** Every string of a value (objects and arrays, deeply) as xmlText makes it; other values as they are. */
export function withXmlText<T>(value: T): T {
  if (typeof value === 'string') return xmlText(value) as T;
  if (Array.isArray(value)) return value.map(withXmlText) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withXmlText(v)])) as T;
  return value;
}

/** Text as an XML element's content or an attribute's value: allowed characters, markup escaped. */
export function escapeXml(text: string): string {
  return xmlText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
