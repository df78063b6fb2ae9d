/**
 * The page furniture every PDF of the portal shares, on pdfkit (issue 14, finding 7; DESIGN.md
 * "invoices are real PDF files made with a maintained PDF library"): A4, embedded Unicode fonts
 * with the CJK fallback (fonts.ts), the logo and brand rule at the top, the footer with the
 * publisher's details and "Page n of m" on every page, and the document's language and title in
 * its metadata. pdfkit streams its output; `finish` collects it into one Buffer, so a request waits
 * on a promise instead of holding the event loop while the file is written out.
 */
import { createRequire } from 'node:module';
import { ensureFont, fontRuns, type FontRole } from './fonts';
import { drawLogo } from './logo';
import type { DocumentLocale, DocumentWords } from './documentTexts';
import type { DocumentTenant } from './documentTenant';

/**
 * pdfkit is loaded with the first document, not with the server: it is about 17 MB of a server's
 * memory, and most requests never make a PDF (issue 9, memory under 300 MB).
 */
let pdfkit: typeof import('pdfkit') | undefined;
const PDFDocument = () => (pdfkit ??= createRequire(import.meta.url)('pdfkit') as typeof import('pdfkit'));

export const A4 = { width: 595.28, height: 841.89 } as const;
export const MARGIN = 50;
/** Space kept free at the bottom of each page for the footer. */
export const FOOTER_HEIGHT = 70;
export const CONTENT_WIDTH = A4.width - 2 * MARGIN;
export const TEXT_COLOR = '#1c1c1c';
export const MUTED_COLOR = '#595959';

export interface TextStyle {
  size?: number;
  font?: FontRole;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
}

export interface PdfPage {
  doc: PDFKit.PDFDocument;
  locale: DocumentLocale;
  words: DocumentWords;
  tenant: DocumentTenant;
  /** The y below which content must not go on the current page. */
  bottom: number;
  /** The document's own line in the footer (for example "This invoice was created in the customer portal."). */
  footerNote?: string;
}

/** Starts a document; `compress: false` only for tests that read the raw content streams. */
export function startPdf(opts: {
  tenant: DocumentTenant;
  locale: DocumentLocale;
  words: DocumentWords;
  title: string;
  compress?: boolean;
}): {
  page: PdfPage;
  finish: () => Promise<Buffer>;
} {
  const doc = new (PDFDocument())({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    autoFirstPage: true,
    compress: opts.compress ?? true,
    pdfVersion: '1.4',
    lang: opts.locale,
    displayTitle: true,
    info: {
      Title: opts.title,
      Author: opts.tenant.invoice?.publisher?.name ?? opts.tenant.name,
      Producer: 'publisher-portal (pdfkit)',
      Creator: 'publisher-portal',
    },
  });
  doc.font(ensureFont(doc, 'regular'));
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const page: PdfPage = {
    doc,
    locale: opts.locale,
    words: opts.words,
    tenant: opts.tenant,
    bottom: A4.height - FOOTER_HEIGHT - 10,
  };
  return {
    page,
    finish: async () => {
      drawFooters(page);
      doc.end();
      return done;
    },
  };
}

function selectFont(doc: PDFKit.PDFDocument, role: FontRole): void {
  doc.font(ensureFont(doc, role));
}

/**
 * Writes one line or paragraph at (x, y). The text is split into runs by font coverage
 * (fonts.ts), written with pdfkit's `continued` so the runs flow as one line. Returns the height
 * it took.
 */
export function write(page: PdfPage, text: string, x: number, y: number, style: TextStyle = {}): number {
  const { doc } = page;
  const size = style.size ?? 10;
  const role = style.font ?? 'regular';
  const runs = fontRuns(text, role);
  // Without a width pdfkit measures from its cursor (wherever the last text ended): take the rest of the line from x instead.
  const options: PDFKit.Mixins.TextOptions = {
    width: style.width ?? A4.width - MARGIN - x,
    align: style.align ?? 'left',
    lineGap: 2,
  };
  doc.fillColor(style.color ?? TEXT_COLOR).fontSize(size);
  selectFont(doc, role);
  const height = doc.heightOfString(text || ' ', options);
  if (runs.length === 0) return height;
  runs.forEach((run, index) => {
    selectFont(doc, run.role);
    const last = index === runs.length - 1;
    if (index === 0) doc.text(run.text, x, y, { ...options, continued: !last });
    else doc.text(run.text, { ...options, continued: !last });
  });
  return height;
}

export function rule(
  page: PdfPage,
  y: number,
  color = '#999999',
  x = MARGIN,
  width = CONTENT_WIDTH,
  height = 0.8,
): void {
  page.doc.save().rect(x, y, width, height).fill(color).restore();
}

export function brandColor(tenant: DocumentTenant): string {
  const primary = tenant.themeTokens?.colors?.primary;
  return primary && /^#[0-9a-f]{6}$/i.test(primary) ? primary : '#1b3a6b';
}

/**
 * The top of the first page: the logo (or the tenant's name in its brand colour) on the left, the
 * brand rule under it, and the seller's name, postal address and VAT id on the right. Returns the
 * y where the content starts.
 */
export function drawHeader(page: PdfPage): number {
  const { tenant, words } = page;
  const top = 40;
  const logoHeight = 44;
  const logoWidth = 230;
  const drawn = drawLogo(page.doc, tenant, MARGIN, top, logoWidth, logoHeight);
  if (!drawn)
    write(page, tenant.name, MARGIN, top + 10, {
      size: 20,
      font: 'bold',
      color: brandColor(tenant),
      width: logoWidth,
    });
  const publisher = tenant.invoice?.publisher;
  const right = MARGIN + CONTENT_WIDTH - 240;
  let y = top;
  if (publisher) {
    y += write(page, publisher.name, right, y, { size: 9, font: 'bold', width: 240, align: 'right' });
    for (const line of publisher.addressLines)
      y += write(page, line, right, y, { size: 9, width: 240, align: 'right', color: MUTED_COLOR });
    if (publisher.vatId)
      y += write(page, `${words.vatId} ${publisher.vatId}`, right, y, {
        size: 9,
        width: 240,
        align: 'right',
        color: MUTED_COLOR,
      });
  }
  const below = Math.max(top + logoHeight, y) + 10;
  rule(page, below, brandColor(tenant), MARGIN, CONTENT_WIDTH, 2);
  return below + 20;
}

/** A new page for content that did not fit; returns the y where the content continues. */
export function nextPage(page: PdfPage): number {
  page.doc.addPage();
  rule(page, 40, brandColor(page.tenant), MARGIN, CONTENT_WIDTH, 2);
  return 60;
}

/** Label/value rows; returns the y below them. */
export function facts(
  page: PdfPage,
  rows: Array<[string, string]>,
  x: number,
  y: number,
  labelWidth = 130,
  valueWidth = 200,
): number {
  let at = y;
  for (const [label, value] of rows) {
    if (!value) continue;
    const h = Math.max(
      write(page, label, x, at, { size: 10, font: 'bold', width: labelWidth }),
      write(page, value, x + labelWidth, at, { size: 10, width: valueWidth }),
    );
    at += h + 3;
  }
  return at;
}

/** The footer of every page: the note, the seller's details, and "Page n of m". */
function drawFooters(page: PdfPage): void {
  const { doc, tenant, words } = page;
  const range = doc.bufferedPageRange();
  const publisher = tenant.invoice?.publisher;
  const contact = [
    tenant.contact?.email ?? tenant.contact?.fallbackEmail,
    tenant.contact?.phone ?? tenant.contact?.fallbackPhone,
  ]
    .filter(Boolean)
    .join(' · ');
  const sellerLine = publisher
    ? [
        publisher.name,
        publisher.addressLines.join(', '),
        publisher.vatId ? `${words.vatId} ${publisher.vatId}` : '',
        publisher.registration ?? '',
      ]
        .filter(Boolean)
        .join(' · ')
    : tenant.name;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would make pdfkit open a new page: lift the margin while the footer is drawn.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = A4.height - FOOTER_HEIGHT + 8;
    rule(page, y - 6, '#cccccc');
    const width = CONTENT_WIDTH - 90;
    let at = y;
    if (page.footerNote)
      at += write(page, page.footerNote, MARGIN, at, { size: 8, color: MUTED_COLOR, width });
    at += write(page, sellerLine, MARGIN, at, { size: 8, color: MUTED_COLOR, width });
    if (contact) write(page, contact, MARGIN, at, { size: 8, color: MUTED_COLOR, width });
    write(page, words.page(i - range.start + 1, range.count), MARGIN + CONTENT_WIDTH - 85, y, {
      size: 8,
      color: MUTED_COLOR,
      width: 85,
      align: 'right',
    });
    doc.page.margins.bottom = margin;
  }
}
