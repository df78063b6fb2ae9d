/**
 * A pseudo-locale for the proof that a third locale is JSON files plus one line of configuration:
 * its texts are British English with every letter accented and each text in brackets,
 * so a text that escaped translation, or one from another locale, stands out on a screen, in a mail
 * or in a PDF, while the text stays readable and as long as a real translation.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const PSEUDO_LOCALE = 'en-XA';

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'åƀçđéƒĝĥîĵķļɱñöþǫŕšŧûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŦÛṼŴẊÝŽ';
const ACCENT = new Map([...PLAIN].map((letter, index) => [letter, [...ACCENTED][index]]));
/** Placeholders ({{name}}, {name}) and HTML tags: code fills and renders them, so they stay as they are. */
const KEPT = /(\{\{[^}]*\}\}|\{[^}]*\}|<[^>]*>)/;

export function pseudo(text: string): string {
  const accented = text
    .split(KEPT)
    .map((part, index) => (index % 2 ? part : [...part].map((c) => ACCENT.get(c) ?? c).join('')))
    .join('');
  return `[${accented}]`;
}

export const pseudoTable = (table: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(table).map(([key, text]) => [key, pseudo(text)]));

/** Every texts.json of the engine (the shell's, the account kit's, each feature's). */
export function engineTextFiles(dir = 'engine'): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return engineTextFiles(file);
    return entry === 'texts.json' ? [file] : [];
  });
}

/** One locale's texts of every engine texts.json, merged. */
export function engineTexts(locale: string): Record<string, string> {
  return Object.assign(
    {},
    ...engineTextFiles().map((file) => JSON.parse(readFileSync(file, 'utf8'))[locale] ?? {}),
  );
}

/**
 * The pieces of the given texts that would give another language away: what stands between the
 * placeholders and tags of each text, where it has at least two words (a single word such as
 * "Status" or "PayPal" is the same in several languages).
 */
export function telltales(texts: Iterable<string>): string[] {
  const pieces = new Set<string>();
  for (const text of texts)
    for (const piece of text.split(KEPT).filter((_, index) => index % 2 === 0)) {
      const trimmed = piece.replace(/\s+/g, ' ').trim();
      if (/\p{L}{2,}.*\s.*\p{L}{2,}/u.test(trimmed) && trimmed.length >= 8) pieces.add(trimmed);
    }
  return [...pieces];
}

/** The telltales that occur in `shown` (whitespace collapsed as a reader sees it). */
export function foundIn(shown: string, pieces: readonly string[]): string[] {
  const text = shown.replace(/\s+/g, ' ');
  return pieces.filter((piece) => text.includes(piece));
}
