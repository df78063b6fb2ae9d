/**
 * The engine's text files (every texts.json under engine/): each key once per locale, and the same keys in
 * both. JSON.parse keeps the last of two equal keys silently, so a key written twice (two screens
 * adding the same name for different words) replaces the first one's text without an error.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';

function textFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return textFiles(file);
    return name === 'texts.json' ? [file] : [];
  });
}

/** The keys written more than once in the same object, as `locale/key`. */
function repeatedKeys(text: string): string[] {
  const seen: Array<Set<string>> = [];
  const path: string[] = [];
  const repeated: string[] = [];
  visit(text, {
    onObjectBegin: () => void seen.push(new Set()),
    onObjectEnd: () => void seen.pop(),
    onObjectProperty: (name) => {
      const keys = seen[seen.length - 1];
      if (keys.has(name)) repeated.push([...path.slice(0, seen.length - 1), name].join('/'));
      keys.add(name);
      path[seen.length - 1] = name;
    },
  });
  return repeated;
}

describe('engine text files', () => {
  const files = textFiles('engine');
  it('are found', () => expect(files.length).toBeGreaterThan(10));
  for (const file of files) {
    it(`${file}: every key once, the same keys in every locale`, () => {
      const text = readFileSync(file, 'utf8');
      expect(repeatedKeys(text)).toEqual([]);
      const tables = JSON.parse(text) as Record<string, Record<string, string>>;
      const [first, ...others] = Object.values(tables).map((table) => Object.keys(table).sort());
      for (const keys of others) expect(keys).toEqual(first);
    });
  }
});
