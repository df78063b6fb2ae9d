/**
 * The tenant's logo on the PDFs. Tenant logos are data: URIs or https URLs (tenant.schema.json
 * "logoUrl"); the demo tenants' are inline SVG. pdfkit draws PNG and JPEG itself; SVG goes through
 * svg-to-pdfkit, with the SVG's font families mapped onto the embedded DejaVu fonts (a PDF may not
 * rely on the reader's fonts). An https logo is not fetched while rendering (no network call in a
 * download, no request to a host the operator typed): set `invoice.logoUrl` to a data: URI instead;
 * without a drawable logo the header prints the tenant's name in its brand colour.
 */
import SVGtoPDF from 'svg-to-pdfkit';
import { ensureFont } from './fonts';
import type { DocumentTenant } from './documentTenant';

export interface DecodedImage {
  type: 'png' | 'jpeg' | 'svg';
  data: Buffer;
}

/** The image of a data: URI of a PNG, JPEG or SVG; null for anything else (an https URL, a GIF). */
export function decodeDataUri(uri: string | undefined): DecodedImage | null {
  const match = uri ? /^data:image\/(png|jpeg|svg\+xml)((?:;[^,;]+)*?)(;base64)?,(.*)$/s.exec(uri) : null;
  if (!match) return null;
  const [, kind, , base64, payload] = match;
  let data: Buffer;
  try {
    data = base64 ? Buffer.from(payload, 'base64') : Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    return null; // a malformed %-escape: no logo rather than a failed download
  }
  return { type: kind === 'svg+xml' ? 'svg' : (kind as 'png' | 'jpeg'), data };
}

/** The logo the PDFs print: invoice.logoUrl first, then the portal's logoUrl. */
export function pdfLogo(tenant: DocumentTenant): DecodedImage | null {
  return decodeDataUri(tenant.invoice?.logoUrl) ?? decodeDataUri(tenant.logoUrl);
}

function svgFont(doc: PDFKit.PDFDocument, family: string, bold: boolean): string {
  const serif = (/serif/i.test(family) && !/sans/i.test(family)) || /georgia|times|garamond/i.test(family);
  return ensureFont(doc, serif ? (bold ? 'serifBold' : 'serif') : bold ? 'bold' : 'regular');
}

/** Draws the logo into the box (keeping its proportions); false when there is none it can draw. */
export function drawLogo(
  doc: PDFKit.PDFDocument,
  tenant: DocumentTenant,
  x: number,
  y: number,
  width: number,
  height: number,
): boolean {
  const logo = pdfLogo(tenant);
  if (!logo) return false;
  try {
    if (logo.type === 'svg') {
      doc.save();
      SVGtoPDF(doc, logo.data.toString('utf8'), x, y, {
        width,
        height,
        preserveAspectRatio: 'xMinYMid meet',
        // An <image> inside the SVG is drawn only from an inline PNG or JPEG: svg-to-pdfkit would
        // otherwise hand its href to pdfkit, which reads paths from the server's disk.
        imageCallback: (href: string) => (/^data:image\/(png|jpeg);base64,/.test(href) ? href : ''),
        fontCallback: (family, bold, _italic, options) => {
          // DejaVu has no italic in use here; svg-to-pdfkit slants the upright font instead.
          options.fauxItalic = _italic;
          return svgFont(doc, family ?? '', bold);
        },
        warningCallback: () => undefined,
      });
      doc.restore();
    } else {
      doc.image(logo.data, x, y, { fit: [width, height], valign: 'center' });
    }
    return true;
  } catch {
    // A logo pdfkit cannot read (a corrupt PNG) must not cost the subscriber the invoice.
    return false;
  }
}
