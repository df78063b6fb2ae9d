/**
 * Reads the text of a PDF back the way a reader's search or copy does, with pdf.js (Mozilla's PDF
 * reader; its legacy build runs on Node 20). Tests of the documents assert on this text, not on the
 * bytes, so they prove what a subscriber sees and can copy.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfText {
  pages: string[];
  /** All pages, whitespace collapsed to single spaces. */
  text: string;
  title: string | undefined;
  language: string | undefined;
}

export async function pdfText(bytes: Uint8Array | Buffer): Promise<PdfText> {
  const data = new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const doc = await getDocument({ data, verbosity: 0, useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
      .join('');
    pages.push(text.replace(/[ \t\u00a0\u202f]+/g, ' ').trim());
  }
  const meta = await doc.getMetadata();
  const info = meta.info as { Title?: string; Language?: string };
  await doc.destroy();
  return { pages, text: pages.join('\n').replace(/\s+/g, ' '), title: info.Title, language: info.Language };
}

/** GETs a file from the API as bytes (the tests' JSON client decodes bodies as UTF-8, which breaks binary files). */
export async function fetchFile(
  url: string,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url, {
    headers: { accept: '*/*', ...(token ? { 'x-auth-token': token } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
