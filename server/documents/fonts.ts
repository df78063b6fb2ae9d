/**
 * The fonts embedded in every PDF (with the standard fonts, text outside WinAnsi printed as "?"). They
 * come from npm packages, never from a system font path, so a CI machine without fonts renders the
 * same file:
 * - DejaVu Sans (package dejavu-fonts-ttf): Latin, Greek, Cyrillic, Arabic, Hebrew and more, so
 *   "Zoë Ødegård-Łukasiewicz" prints and extracts as written; DejaVu Serif for serif SVG logos.
 * - Noto Sans Hans (package @embedpdf/fonts-sc, GB2312 hanzi plus kana): the fallback for Chinese
 *   and Japanese characters in names. It is 8 MB, so it is read only when a text needs it.
 * pdfkit subsets each font to the glyphs used, so a one-page invoice stays small.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create as openFont, type Font } from 'fontkit';

const require = createRequire(import.meta.url);

export type FontRole = 'regular' | 'bold' | 'serif' | 'serifBold' | 'cjk' | 'cjkBold';

function dejavu(file: string): string {
  // dejavu-fonts-ttf has no entry point: resolve its package.json and take the ttf folder beside it.
  return join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', file);
}

function notoHans(file: string): string {
  // @embedpdf/fonts-sc exports only its index (dist/); the fonts sit in fonts/ next to dist/.
  return join(dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts', file);
}

const FILES: Record<FontRole, () => string> = {
  regular: () => dejavu('DejaVuSans.ttf'),
  bold: () => dejavu('DejaVuSans-Bold.ttf'),
  serif: () => dejavu('DejaVuSerif.ttf'),
  serifBold: () => dejavu('DejaVuSerif-Bold.ttf'),
  cjk: () => notoHans('NotoSansHans-Regular.otf'),
  cjkBold: () => notoHans('NotoSansHans-Bold.otf'),
};

/** The names the fonts are registered under in each document (pdfkit's registerFont). */
export const FONT_NAMES: Record<FontRole, string> = {
  regular: 'DejaVuSans',
  bold: 'DejaVuSans-Bold',
  serif: 'DejaVuSerif',
  serifBold: 'DejaVuSerif-Bold',
  cjk: 'NotoSansHans',
  cjkBold: 'NotoSansHans-Bold',
};

// Read once per process: the bytes never change, and reading 8 MB per invoice would be waste.
const bytes = new Map<FontRole, Buffer>();
const parsed = new Map<FontRole, Font>();

export function fontBytes(role: FontRole): Buffer {
  let data = bytes.get(role);
  if (!data) {
    data = readFileSync(FILES[role]());
    bytes.set(role, data);
  }
  return data;
}

function fontFile(role: FontRole): Font {
  let font = parsed.get(role);
  if (!font) {
    font = openFont(fontBytes(role)) as Font;
    parsed.set(role, font);
  }
  return font;
}

/** Whether the font has a glyph of its own for the character (not the empty-box .notdef). */
export function covers(role: FontRole, char: string): boolean {
  const code = char.codePointAt(0)!;
  // Spaces and controls never need a fallback; a line break is layout, not a glyph.
  if (code <= 0x20) return true;
  return fontFile(role).hasGlyphForCodePoint(code);
}

export interface TextRun {
  text: string;
  role: FontRole;
}

/**
 * Splits a text into runs of the wanted font and of the CJK fallback, character by character:
 * DejaVu first, Noto Sans Hans for what DejaVu lacks. A character neither has stays in the wanted
 * font (it prints as a box but keeps its Unicode value for copy and search).
 */
export function fontRuns(text: string, wanted: FontRole): TextRun[] {
  const fallback: FontRole = wanted === 'bold' || wanted === 'serifBold' ? 'cjkBold' : 'cjk';
  const runs: TextRun[] = [];
  for (const char of text) {
    const role = covers(wanted, char) || !covers(fallback, char) ? wanted : fallback;
    const last = runs[runs.length - 1];
    if (last && last.role === role) last.text += char;
    else runs.push({ text: char, role });
  }
  return runs;
}

/**
 * Registers a font in a document the first time the document needs it, and returns its name, so
 * a document embeds only what it uses (most never need the serif or the 8 MB CJK font).
 */
export function ensureFont(doc: PDFKit.PDFDocument, role: FontRole): string {
  const name = FONT_NAMES[role];
  const registered = (doc as unknown as { _registeredFonts: Record<string, unknown> })._registeredFonts;
  // pdfkit (0.20) takes a parsed fontkit font as well as bytes: handing it the process's parsed
  // font spares every document re-reading the font tables (most of a render's time otherwise).
  // pdfkit's types only list bytes and paths.
  if (!registered[name]) doc.registerFont(name, fontFile(role) as unknown as Buffer);
  return name;
}
