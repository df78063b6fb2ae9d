/**
 * The PDFs are tagged (an untagged invoice is unreadable by a screen reader). Read back
 * with pdf.js the way assistive technology reads them: the catalog says the file is marked and
 * names its structure tree and language; the structure tree holds the heading, paragraphs and
 * table cells, and their marked content is the very text the page shows; every piece of text on a
 * page is either in the structure or an artifact (page numbers, a repeated table head).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { invoicePdf, purchaseOrderPdf } from '../../../server/documents/documents';
import type { DocumentTenant } from '../../../server/documents/documentTenant';
import type { InvoiceInput, InvoiceLine } from '../../../server/documents/invoicePdf';
import { pdfText } from './pdfText';

const SVG_LOGO =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='190'%20height='40'%3E%3Ctext%20x='0'%20y='30'%20font-size='28'%3ELogotext%3C/text%3E%3C/svg%3E";

const tenant: DocumentTenant = {
  name: 'Stadtkurier',
  defaultLocale: 'de-DE',
  logoUrl: SVG_LOGO,
  themeTokens: { colors: { primary: '#1b3a6b' } },
  contact: { email: 'leserservice@stadtkurier.example' },
  invoice: {
    publisher: {
      name: 'Stadtkurier Verlag GmbH',
      addressLines: ['Maximilianstraße 12', '86150 Augsburg'],
      vatId: 'DE811234567',
      registration: 'Amtsgericht Augsburg HRB 12345',
      // Complete for an e-invoice: the structure is checked on the hybrid Factur-X
      // file the portal serves, after the PDF/A-3 step rewrote the catalog.
      street: 'Maximilianstraße 12',
      postalCode: '86150',
      city: 'Augsburg',
      countryCode: 'DE',
    },
    vatRatePercent: 7,
  },
};

const invoice: InvoiceInput = {
  tenant,
  locale: 'de-DE',
  subscription: {
    displayName: 'Stadtkurier Print Vollabo',
    publication: 'SKA',
    publicationName: 'Stadtkurier',
    orderNumber: '1234567890',
    billingFrequency: '03',
    validToOnSaleDate: null,
  },
  payment: {
    id: 'P-1',
    date: '2026-01-01',
    amount: 107,
    currency: 'EUR',
    invoiceStatusCode: 'A',
    invoiceNumber: '9000001234',
    externalDocumentNumber: 'RE2026-001234',
    documentId: 'DOC-9000001234',
  },
  billedTo: {
    bpNumber: '1000000042',
    firstName: 'Erika',
    lastName1: 'Mustermann',
    company1: null,
    street: 'Hauptstraße',
    streetNumber: '5',
    zipcode: '86150',
    city: 'Augsburg',
    countryCode: 'DE',
  },
};

interface StructNode {
  role: string;
  alt?: string;
  children: StructNode[];
  /** The text of the element's own marked content and of its descendants'. */
  text: string;
}

interface TaggedPage {
  /** The page's part of the structure tree, text filled in from the marked content it points at. */
  tree: StructNode;
  /** Text shown on the page outside any structure element: artifacts, and untagged text (there must be none). */
  artifacts: string[];
  untagged: string[];
}

const squash = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

/** Each page's structure tree with the text of its marked content, and the text outside of it. */
async function taggedPages(bytes: Buffer): Promise<{ pages: TaggedPage[]; markInfo: unknown }> {
  const data = new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const doc = await getDocument({ data, verbosity: 0, useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: TaggedPage[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent({ includeMarkedContent: true });
    // Marked content as pdf.js reports it: begin (with the id the structure tree points at) … end.
    const textById = new Map<string, string>();
    const open: Array<{ id: string | null; tag: string }> = [];
    const artifacts: string[] = [];
    const untagged: string[] = [];
    for (const item of content.items) {
      if ('type' in item) {
        // pdf.js reports the tag (Artifact, P, …) too; its types do not declare it.
        const { tag } = item as typeof item & { tag?: string };
        if (item.type === 'beginMarkedContentProps' || item.type === 'beginMarkedContent')
          open.push({ id: item.id ?? null, tag: tag ?? '' });
        else if (item.type === 'endMarkedContent') open.pop();
        continue;
      }
      const text = item.str + (item.hasEOL ? ' ' : '');
      const owner = [...open].reverse().find((m) => m.id);
      if (owner) textById.set(owner.id!, (textById.get(owner.id!) ?? '') + text);
      else if (open.some((m) => m.tag === 'Artifact')) artifacts.push(text);
      else if (text.trim()) untagged.push(text);
    }
    type RawNode = { role?: string; alt?: string; children?: RawNode[]; type?: string; id?: string };
    const build = (node: RawNode): StructNode => {
      const children = (node.children ?? []).filter((child) => child.role).map(build);
      const own = (node.children ?? [])
        .filter((child) => child.type === 'content' && child.id)
        .map((child) => textById.get(child.id!) ?? '')
        .join(' ');
      return {
        role: node.role!,
        alt: node.alt,
        children,
        text: squash([own, ...children.map((child) => child.text)].join(' ')),
      };
    };
    const raw = (await page.getStructTree()) as RawNode | null;
    if (!raw) throw new Error(`page ${n} has no structure tree`);
    pages.push({ tree: build(raw), artifacts: artifacts.map(squash).filter(Boolean), untagged });
  }
  const markInfo = await doc.getMarkInfo();
  await doc.destroy();
  return { pages, markInfo };
}

const all = (node: StructNode, role: string): StructNode[] => [
  ...(node.role === role ? [node] : []),
  ...node.children.flatMap((child) => all(child, role)),
];
/** A table's rows as the texts of their cells. */
const rows = (table: StructNode) =>
  all(table, 'TR').map((row) => row.children.map((cell) => `${cell.role}:${cell.text}`));

// The first document of the file loads pdfkit's fonts and pdf.js: seconds on a busy machine, over
// vitest's default 5 s (a CI run failed there once).
describe('tagged PDFs', { timeout: 30_000 }, () => {
  it('declare in the catalog that they are marked, with a structure tree, the language and a displayed title', async () => {
    const pdf = await invoicePdf(invoice);
    expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    // The catalog read with pdf-lib: the Factur-X step rewrites the file, so the
    // catalog is no longer pdfkit's text (its MarkInfo, for one, is a direct dictionary now).
    const { PDFDocument, PDFName, PDFRef, PDFBool } = await import('@cantoo/pdf-lib');
    type PdfDict = import('@cantoo/pdf-lib').PDFDict;
    const { catalog, context } = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(catalog.get(PDFName.of('StructTreeRoot'))).toBeInstanceOf(PDFRef);
    const root = context.lookup(catalog.get(PDFName.of('StructTreeRoot'))) as PdfDict;
    expect(root.has(PDFName.of('K'))).toBe(true);
    expect(catalog.lookup(PDFName.of('Lang'))?.toString()).toBe('(de-DE)');
    expect(catalog.has(PDFName.of('ViewerPreferences'))).toBe(true);
    const markInfo = catalog.lookup(PDFName.of('MarkInfo')) as PdfDict;
    expect(markInfo.get(PDFName.of('Marked'))).toBe(PDFBool.True);
    expect((await taggedPages(pdf)).markInfo).toMatchObject({ Marked: true });
    const { title, language } = await pdfText(pdf);
    expect(title).toBe('Rechnung 9000001234');
    expect(language).toBe('de-DE');
    expect((await pdfText(await invoicePdf({ ...invoice, locale: 'en-GB' }))).language).toBe('en-GB');
  });

  it('read the invoice as a heading, paragraphs and tables whose cells are the text the page shows', async () => {
    const pdf = await invoicePdf(invoice);
    const { pages } = await taggedPages(pdf);
    const [{ tree, artifacts, untagged }] = pages;
    const shown = squash((await pdfText(pdf)).pages[0]);

    expect(tree.children.map((child) => child.role)).toEqual(['Document']);
    const [document] = tree.children;
    expect(all(document, 'H1').map((h) => h.text)).toEqual(['Rechnung 9000001234']);
    expect(all(document, 'Figure')).toMatchObject([{ alt: 'Stadtkurier' }]);
    const paragraphs = all(document, 'P').map((p) => p.text);
    expect(paragraphs).toEqual(
      expect.arrayContaining([
        'Stadtkurier Verlag GmbH',
        'Maximilianstraße 12',
        'USt-IdNr. DE811234567',
        'Rechnungsempfänger',
        'Erika Mustermann',
        'Hauptstraße 5',
        // The first page's footer is read once, at the end: it alone names the register entry.
        expect.stringContaining('Amtsgericht Augsburg HRB 12345'),
      ]),
    );
    const [facts, lines, totals] = all(document, 'Table');
    expect(rows(facts)).toEqual(
      expect.arrayContaining([
        ['TH:Rechnungsnummer', 'TD:9000001234'],
        ['TH:Auftragsnummer', 'TD:1234567890'],
        ['TH:Kundennummer', 'TD:1000000042'],
        ['TH:Leistungszeitraum', 'TD:01.01.2026 – 31.03.2026'],
      ]),
    );
    expect(rows(lines)).toEqual([
      ['TH:Leistung', 'TH:Leistungszeitraum', 'TH:Betrag'],
      ['TD:Stadtkurier Print Vollabo', 'TD:01.01.2026 – 31.03.2026', 'TD:107,00 €'],
    ]);
    expect(rows(totals)).toEqual([
      ['TH:Nettobetrag', 'TD:100,00 €'],
      ['TH:Umsatzsteuer 7 %', 'TD:7,00 €'],
      ['TH:Gesamtbetrag (brutto) EUR', 'TD:107,00 €'],
    ]);
    // What the structure says is what the page shows …
    for (const node of [...all(document, 'P'), ...all(document, 'TH'), ...all(document, 'TD')])
      expect(shown).toContain(node.text);
    // … and all the page shows is in the structure, but for the page number.
    expect(untagged).toEqual([]);
    expect(artifacts).toEqual(['Seite 1 von 1']);
    expect(document.text).not.toContain('Seite 1 von 1');
  });

  it('keep one table over the pages of a long invoice, its repeated head and the later footers as artifacts', async () => {
    const lines: InvoiceLine[] = Array.from({ length: 60 }, (_, i) => ({
      description: `Ausgabe ${i + 1} Sonderheft`,
      period: { from: '2026-01-01', to: '2026-01-31' },
      amount: 1.07,
    }));
    const { pages } = await taggedPages(await invoicePdf({ ...invoice, lines }));
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const cells = pages.flatMap(({ tree }) => all(tree, 'TR').map((row) => row.children[0]));
    expect(cells.filter((cell) => cell.role === 'TH' && cell.text === 'Leistung')).toHaveLength(1);
    const described = cells.filter(
      (cell) => cell.role === 'TD' && /^Ausgabe \d+ Sonderheft$/.test(cell.text),
    );
    expect(described).toHaveLength(60);
    for (const page of pages) expect(page.untagged).toEqual([]);
    const second = pages[1].artifacts.join(' ');
    expect(second).toContain('Leistung Leistungszeitraum Betrag');
    expect(second).toContain('(Fortsetzung)');
    expect(second).toContain('Amtsgericht Augsburg HRB 12345');
    expect(second).toContain(`Seite 2 von ${pages.length}`);
  });

  it('tag the other documents too: a heading and their facts as a table', async () => {
    const pdf = await purchaseOrderPdf(tenant, 'en-GB', {
      purchaseOrderNumber: 'PO-77',
      distributionArticleNumber: 'A-1',
      distributionArticleDescription: 'Stadtkurier Jahrbuch 2026',
      dateOfPurchaseOrderClient: '2026-02-03',
      quantity: 2,
    } as Parameters<typeof purchaseOrderPdf>[2]);
    const [{ tree, untagged }] = (await taggedPages(pdf)).pages;
    expect(all(tree, 'H1').map((h) => h.text)).toEqual(['Stadtkurier Jahrbuch 2026']);
    expect(rows(all(tree, 'Table')[0])).toEqual(expect.arrayContaining([['TH:Quantity', 'TD:2']]));
    expect(untagged).toEqual([]);
    expect((await pdfText(pdf)).language).toBe('en-GB');
  });

  // qpdf checks the file's structure (cross-reference table, object streams, content streams) as a
  // second reader; .ci/run installs it, elsewhere the check is skipped without it.
  const qpdf = (() => {
    try {
      return execFileSync('sh', ['-c', 'command -v qpdf'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();
  it.skipIf(!qpdf)('pass qpdf --check (skipped: qpdf is not installed)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tagged-pdf-'));
    try {
      const file = path.join(dir, 'invoice.pdf');
      writeFileSync(file, await invoicePdf(invoice));
      expect(execFileSync(qpdf, ['--check', file], { encoding: 'utf8' })).toContain(
        'No syntax or stream encoding errors',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
