/**
 * The page furniture every PDF of the portal shares, on pdfkit (docs/architecture.md
 * "Data and the server": real parts, not mocks; invoices as PDF made with pdfkit): A4, embedded Unicode fonts
 * with the CJK fallback (fonts.ts), the logo and brand rule at the top, the footer with the
 * publisher's details and "Page n of m" on every page, and the document's language and title in
 * its metadata. pdfkit streams its output; `finish` collects it into one Buffer, so a request waits
 * on a promise instead of holding the event loop while the file is written out.
 *
 * Every PDF is a tagged PDF (an untagged invoice is unreadable by a screen reader): a
 * `Document` structure element holds the content in reading order — headings (`H1`), paragraphs
 * (`P`), tables of rows (`Table` › `TR` › `TH`/`TD`) and the logo as a `Figure` with the tenant's
 * name as its alternative text — and what only decorates or repeats (the brand rules, "Page n of
 * m", the footer of a second page, a table head repeated on the next page) is marked as an
 * artifact, which readers skip. The document's language is the subscriber's locale and its title
 * is shown in the reader's title bar.
 */
import { createRequire } from 'node:module';
import { ensureFont, fontRuns, type FontRole } from './fonts';
import { drawLogo, pdfLogo } from './logo';
import type { DocumentLocale, DocumentWords } from './documentTexts';
import { registrationIn, type DocumentTenant } from './documentTenant';
import { placeLines } from '../../engine/domain/addressFormat';
import { LOCALES } from '../../engine/domain/locales';
import { countryName } from '../../engine/domain/countryNames';

/** Who created the PDF: `/Creator`, and `xmp:CreatorTool` of a Factur-X invoice (facturXPdf.ts). */
export const PDF_CREATOR = 'publisher-portal';

/**
 * pdfkit is loaded with the first document, not with the server: it is about 17 MB of a server's
 * memory, and most requests never make a PDF (the server stays under 300 MB, docs/testing.md "Speed and size").
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

/** What a piece of text is in the document's structure; `Artifact` for what a reader skips. */
export type TextTag = 'H1' | 'P' | 'TH' | 'TD' | 'Artifact';

export interface TextStyle {
  size?: number;
  font?: FontRole;
  color?: string;
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** Default `P`. */
  tag?: TextTag;
  /** A table head cell's scope: the column below it or the row beside it. */
  scope?: 'Column' | 'Row';
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
  /** Where the next tagged content goes: the `Document` element, or a table or row being written. */
  structure: PDFKit.PDFStructureElement;
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
    // Tagged content (structure tree, marked content) is PDF 1.7 (ISO 32000-1 §14.8).
    pdfVersion: '1.7',
    tagged: true,
    lang: opts.locale,
    displayTitle: true,
    info: {
      Title: opts.title,
      Author: opts.tenant.invoice?.publisher?.name ?? opts.tenant.name,
      Producer: 'publisher-portal (pdfkit)',
      Creator: PDF_CREATOR,
    },
  });
  doc.font(ensureFont(doc, 'regular'));
  const structure = doc.struct('Document');
  doc.addStructure(structure);
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
    structure,
  };
  return {
    page,
    finish: async () => {
      drawFooters(page);
      structure.end();
      doc.end();
      return done;
    },
  };
}

function selectFont(doc: PDFKit.PDFDocument, role: FontRole): void {
  doc.font(ensureFont(doc, role));
}

/**
 * Draws into one structure element of `type` (its content marked with it), added to the current
 * structure. Nothing drawn inside may be an artifact: pdfkit closes open marked content to start one.
 */
export function tagged<T>(
  page: PdfPage,
  type: 'H1' | 'P' | 'TH' | 'TD' | 'Figure',
  draw: () => T,
  options: { alt?: string; scope?: 'Column' | 'Row' } = {},
): T {
  let result: T | undefined;
  // pdfkit runs the closure as soon as the element joins the (already attached) document tree.
  page.structure.add(
    page.doc.struct(type, options as PDFKit.Mixins.StructureElementOptions, () => {
      result = draw();
    }),
  );
  return result as T;
}

/** Draws what a reader skips: decoration (`Layout`) or page furniture (`Pagination`). */
export function artifact<T>(page: PdfPage, draw: () => T, type: 'Layout' | 'Pagination' = 'Layout'): T {
  page.doc.markContent('Artifact', { type });
  try {
    return draw();
  } finally {
    page.doc.endMarkedContent();
  }
}

/** A container element (`Table`, `TR`): what `fill` tags goes inside it, in order. */
export function within<T>(page: PdfPage, type: 'Table' | 'TR', fill: () => T): T {
  const parent = page.structure;
  const element = page.doc.struct(type);
  parent.add(element);
  page.structure = element;
  try {
    return fill();
  } finally {
    page.structure = parent;
    element.end();
  }
}

/**
 * Writes one line or paragraph at (x, y). The text is split into runs by font coverage
 * (fonts.ts), written with pdfkit's `continued` so the runs flow as one line. Returns the height
 * it took.
 */
export function write(page: PdfPage, text: string, x: number, y: number, style: TextStyle = {}): number {
  const tag = style.tag ?? 'P';
  if (tag === 'Artifact') return artifact(page, () => writeText(page, text, x, y, style), 'Pagination');
  return tagged(
    page,
    tag,
    () => writeText(page, text, x, y, style),
    style.scope ? { scope: style.scope } : {},
  );
}

function writeText(page: PdfPage, text: string, x: number, y: number, style: TextStyle): number {
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
  artifact(page, () => page.doc.save().rect(x, y, width, height).fill(color).restore());
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
  // The logo says the publisher's name; a corrupt image leaves the figure empty, with its alternative text.
  const drawn =
    pdfLogo(tenant) !== null &&
    tagged(page, 'Figure', () => drawLogo(page.doc, tenant, MARGIN, top, logoWidth, logoHeight), {
      alt: tenant.name,
    });
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
    for (const line of sellerAddressLines(publisher, page.locale))
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

/** Label/value rows, a table of a head cell (the label) and a cell per row; returns the y below them. */
export function facts(
  page: PdfPage,
  rows: Array<[string, string]>,
  x: number,
  y: number,
  labelWidth = 130,
  valueWidth = 200,
): number {
  let at = y;
  within(page, 'Table', () => {
    for (const [label, value] of rows) {
      if (!value) continue;
      const h = within(page, 'TR', () =>
        Math.max(
          write(page, label, x, at, { size: 10, font: 'bold', width: labelWidth, tag: 'TH', scope: 'Row' }),
          write(page, value, x + labelWidth, at, { size: 10, width: valueWidth, tag: 'TD' }),
        ),
      );
      at += h + 3;
    }
  });
  return at;
}

type Seller = NonNullable<NonNullable<DocumentTenant['invoice']>['publisher']>;

/**
 * The seller's postal address in the document's language: from the parts the e-invoice states
 * (street, postcode, town in the country's order, engine/domain/addressFormat.ts) with the
 * country named in the document's language ("Germany" on an English invoice, as the billed
 * party's), after any line of the tenant's `addressLines` the parts do not say (a "c/o" line, a
 * building); the `addressLines` as they are where the parts are not all given.
 */
export function sellerAddressLines(publisher: Seller, locale: DocumentLocale): readonly string[] {
  const { street, postalCode, city, countryCode } = publisher;
  if (!street || !city || !countryCode) return publisher.addressLines;
  const place = placeLines({ street, zipcode: postalCode, city, countryCode });
  const countryIn = (language: string) => countryName(countryCode, language);
  const said = new Set([...place, countryCode, ...LOCALES.map(countryIn)].map((line) => line.trim()));
  const others = publisher.addressLines.filter((line) => !said.has(line.trim()));
  return [...others, ...place, countryIn(locale)];
}

/**
 * The footer of every page: the note, the seller's details, and "Page n of m". The first page's
 * note and details are read once, at the end of the document (they hold the register entry, said
 * nowhere else); on later pages they repeat and, like the page numbers, are artifacts.
 */
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
        sellerAddressLines(publisher, page.locale).join(', '),
        publisher.vatId ? `${words.vatId} ${publisher.vatId}` : '',
        registrationIn(tenant.invoice, page.locale) ?? '',
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
    const style: TextStyle = {
      size: 8,
      color: MUTED_COLOR,
      width,
      tag: i === range.start ? 'P' : 'Artifact',
    };
    let at = y;
    if (page.footerNote) at += write(page, page.footerNote, MARGIN, at, style);
    at += write(page, sellerLine, MARGIN, at, style);
    if (contact) write(page, contact, MARGIN, at, style);
    write(page, words.page(i - range.start + 1, range.count), MARGIN + CONTENT_WIDTH - 85, y, {
      size: 8,
      color: MUTED_COLOR,
      width: 85,
      align: 'right',
      tag: 'Artifact',
    });
    doc.page.margins.bottom = margin;
  }
}
