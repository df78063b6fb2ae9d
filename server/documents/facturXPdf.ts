/**
 * The last step of a hybrid invoice, after @e-invoice-eu/core's PDF/A-3 step (eInvoice.ts): what
 * the library leaves wrong or takes away is set right here (docs/invoices.md "E-invoices"), found by the
 * checks in taggedPdf.test.ts and eInvoice.test.ts (qpdf, pdfinfo, the EN 16931 schematron).
 *
 * - Structure: the library replaces the catalog's structure tree with an empty one; the tagged PDF
 *   (docs/invoices.md "Invoices and documents") would lose its headings and tables for screen readers. Our
 *   tree is still in the file, unreferenced: the catalog points at it again.
 * - Title, subject, keywords and language: the library sets them in English ("<seller>: Invoice
 *   <n>", "Invoice <n> dated <yyyy-mm-dd> issued by <seller>", "Invoice Factur-X ZUGFeRD") and a
 *   lower-case language, whatever the invoice's language; the invoice's own words in its locale go
 *   back (a reader shows them as the document's properties), `dc:description` following `/Subject`.
 * - Document information and XMP agree, as PDF/A (ISO 19005-3, 6.6.3) requires of every entry
 *   both have: `/Title` and `dc:title`, `/Producer` and `pdf:Producer` (the library writes the
 *   seller's name there), `/Creator` and `xmp:CreatorTool` (the library writes two different
 *   strings), `/Keywords` and `pdf:Keywords` (the library writes no XMP keywords).
 * - The output intent's ICC profile stream gets its `/N` (the number of colour components, 3 for
 *   the sRGB profile), which ISO 32000 requires of an ICC stream and the library omits.
 * - The embedded factur-x.xml is completed where the library leaves out what the invoice gives
 *   (ciiCompletion.ts), its stream's `/Params /Size` following the new length.
 */
import type { PDFContext, PDFDocument as PDFDocumentType, PDFRef } from '@cantoo/pdf-lib';
import { PDF_CREATOR } from './pdfWriter';
import { escapeXml } from './xmlText';

export interface FacturXFinish {
  title: string;
  /** What the document is, in its language: `/Subject` and `dc:description`. */
  subject: string;
  /** The document's kind in its language ("Rechnung"), before Factur-X and ZUGFeRD in `/Keywords`. */
  keyword: string;
  locale: string;
  /** Completes the embedded XML (ciiCompletion.ts). */
  completeXml: (xml: string) => string;
}

export async function finishFacturX(file: Uint8Array, finish: FacturXFinish): Promise<Buffer> {
  const pdfLib = await import('@cantoo/pdf-lib');
  const { PDFDocument, PDFDict, PDFName, PDFArray, PDFNumber, PDFRawStream } = pdfLib;
  const doc = await PDFDocument.load(file, { updateMetadata: false });
  const { catalog, context } = doc;
  const structTreeRoot = PDFName.of('StructTreeRoot');
  const ours = context
    .enumerateIndirectObjects()
    .find(
      ([, object]) =>
        object instanceof PDFDict &&
        object.get(PDFName.of('Type')) === structTreeRoot &&
        object.has(PDFName.of('K')),
    );
  // The library's empty tree stays in the file unreferenced: deleting it leaves a gap in the object
  // numbers that qpdf --check warns about.
  if (ours) catalog.set(structTreeRoot, ours[0]);
  doc.setTitle(finish.title, { showInWindowTitleBar: true });
  doc.setSubject(finish.subject);
  doc.setKeywords([finish.keyword, 'Factur-X', 'ZUGFeRD']);
  doc.setLanguage(finish.locale);
  doc.setCreator(PDF_CREATOR);

  // The ICC profile of the output intent: /N 3, an RGB profile's three components.
  const intents = catalog.lookupMaybe(PDFName.of('OutputIntents'), PDFArray);
  for (let i = 0; i < (intents?.size() ?? 0); i++) {
    const intent = intents!.lookupMaybe(i, PDFDict);
    const profile = intent?.lookup(PDFName.of('DestOutputProfile'));
    if (profile instanceof PDFRawStream && !profile.dict.has(PDFName.of('N')))
      profile.dict.set(PDFName.of('N'), PDFNumber.of(3));
  }

  completeEmbeddedXml(context, pdfLib, finish.completeXml);
  fixXmp(doc, context, pdfLib, finish);
  return Buffer.from(await doc.save());
}

type PdfLib = typeof import('@cantoo/pdf-lib');

function completeEmbeddedXml(context: PDFContext, pdfLib: PdfLib, complete: (xml: string) => string): void {
  const { PDFDict, PDFName, PDFNumber, PDFRawStream, decodePDFRawStream } = pdfLib;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Type')) !== PDFName.of('EmbeddedFile')) continue;
    const xml = new TextDecoder().decode(decodePDFRawStream(object).decode());
    if (!xml.includes('CrossIndustryInvoice')) continue;
    const completed = complete(xml);
    if (completed === xml) continue;
    const bytes = new TextEncoder().encode(completed);
    const stream = context.flateStream(bytes);
    for (const [key, value] of object.dict.entries()) {
      if (['Length', 'Filter', 'DecodeParms'].includes(key.asString().slice(1))) continue;
      stream.dict.set(key, value);
    }
    const params = object.dict.lookupMaybe(PDFName.of('Params'), PDFDict);
    const newParams = params ? params.clone(context) : context.obj({});
    newParams.set(PDFName.of('Size'), PDFNumber.of(bytes.length));
    stream.dict.set(PDFName.of('Params'), newParams);
    context.assign(ref as PDFRef, stream);
  }
}

/** The XMP metadata made to say what the document information says (PDF/A: the two agree). */
function fixXmp(
  doc: PDFDocumentType,
  context: PDFContext,
  pdfLib: PdfLib,
  { title, subject }: Pick<FacturXFinish, 'title' | 'subject'>,
): void {
  const { PDFName, PDFRawStream, decodePDFRawStream } = pdfLib;
  const metadataRef = doc.catalog.get(PDFName.of('Metadata'));
  const metadata = metadataRef ? context.lookup(metadataRef) : undefined;
  if (!metadataRef || !(metadata instanceof PDFRawStream)) return;
  const xmp = new TextDecoder().decode(decodePDFRawStream(metadata).decode());
  const producer = doc.getProducer() ?? '';
  const keywords = doc.getKeywords();
  const set = (element: string) => (text: string, value: string) =>
    text.replace(
      new RegExp(`(<${element}>)[\\s\\S]*?(</${element}>)`),
      (_, open: string, close: string) => `${open}${escapeXml(value)}${close}`,
    );
  let fixed = xmp.replace(
    /(<dc:title>\s*<rdf:Alt>\s*<rdf:li[^>]*>)[\s\S]*?(<\/rdf:li>)/,
    (_, open: string, close: string) => `${open}${escapeXml(title)}${close}`,
  );
  fixed = fixed.replace(
    /(<dc:description>\s*<rdf:Alt>\s*<rdf:li[^>]*>)[\s\S]*?(<\/rdf:li>)/,
    (_, open: string, close: string) => `${open}${escapeXml(subject)}${close}`,
  );
  fixed = set('pdf:Producer')(fixed, producer);
  fixed = set('xmp:CreatorTool')(fixed, PDF_CREATOR);
  if (keywords !== undefined) {
    fixed = fixed.includes('<pdf:Keywords>')
      ? set('pdf:Keywords')(fixed, keywords)
      : fixed.replace(
          /([ \t]*)(<pdf:Producer>[\s\S]*?<\/pdf:Producer>)/,
          (_, indent: string, producerElement: string) =>
            `${indent}${producerElement}\n${indent}<pdf:Keywords>${escapeXml(keywords)}</pdf:Keywords>`,
        );
  }
  const stream = context.stream(new TextEncoder().encode(fixed), { Type: 'Metadata', Subtype: 'XML' });
  context.assign(metadataRef as PDFRef, stream);
}
