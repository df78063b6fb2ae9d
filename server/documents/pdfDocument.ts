/**
 * A small, real PDF 1.4 writer for the server's documents (invoices, issue and purchase-order files;
 * DESIGN.md "Real parts, not mocks: invoices are real PDF files"). One A4 page, the standard
 * Helvetica fonts (no embedding needed), WinAnsi text so German umlauts, ß and € print, filled
 * rectangles for the brand band. Deliberately without a dependency: what the portal prints is text
 * and a colour band, and a hand-written cross-reference table keeps the output byte-for-byte
 * deterministic for tests.
 */

export type PdfFont = 'regular' | 'bold';

export type PdfOp =
  | { kind: 'text'; x: number; y: number; size: number; text: string; font?: PdfFont; color?: string }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; color: string };

export interface PdfPage {
  title: string;
  author: string;
  ops: PdfOp[];
}

export const A4 = { width: 595.28, height: 841.89 } as const;

/** WinAnsiEncoding bytes of a string; characters outside it become '?'. */
function winAnsi(text: string): number[] {
  const special: Record<string, number> = { '€': 0x80, '–': 0x96, '—': 0x97, '„': 0x84, '“': 0x93, '”': 0x94, '‘': 0x91, '’': 0x92, '•': 0x95 };
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (special[char] !== undefined) out.push(special[char]);
    else if (code >= 0x20 && code <= 0x7e) out.push(code);
    else if (code >= 0xa0 && code <= 0xff) out.push(code);
    else out.push(0x3f);
  }
  return out;
}

/** A PDF literal string `( … )` in latin1, with (, ) and \ escaped. */
function pdfString(text: string): string {
  let out = '(';
  for (const byte of winAnsi(text)) {
    const char = String.fromCharCode(byte);
    out += char === '(' || char === ')' || char === '\\' ? `\\${char}` : char;
  }
  return `${out})`;
}

function rgb(hex: string): string {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  const digits = match ? match[1] : '000000';
  return [0, 2, 4].map((i) => (parseInt(digits.slice(i, i + 2), 16) / 255).toFixed(3)).join(' ');
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

function contentStream(ops: PdfOp[]): string {
  const lines: string[] = [];
  for (const op of ops) {
    if (op.kind === 'rect') {
      lines.push(`${rgb(op.color)} rg ${num(op.x)} ${num(op.y)} ${num(op.width)} ${num(op.height)} re f`);
    } else {
      const font = op.font === 'bold' ? 'F2' : 'F1';
      lines.push(`BT ${rgb(op.color ?? '#1c1c1c')} rg /${font} ${num(op.size)} Tf ${num(op.x)} ${num(op.y)} Td ${pdfString(op.text)} Tj ET`);
    }
  }
  return lines.join('\n');
}

/** Approximate width of Helvetica text (average glyph 0.5 em), for right-aligning amounts. */
export function textWidth(text: string, size: number): number {
  return [...text].length * size * 0.5;
}

/** Renders one page as a complete PDF file. */
export function renderPdf(page: PdfPage): Buffer {
  const stream = contentStream(page.ops);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title ${pdfString(page.title)} /Author ${pdfString(page.author)} /Producer (publisher-portal) >>`,
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
