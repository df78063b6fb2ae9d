/**
 * Every form of the subscriber's screens checks its fields itself and answers with the portal's
 * message in the screen's language (portal-core.md §5 "Required fields"): `noValidate` on each
 * `<form>`, so a `required` or typed input never shows the browser's own bubble in the browser's
 * language ("Please fill out this field.").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/** The opening tags of `<form …>` elements in a source: from `<form` to the first `>` outside braces. */
function formTags(source: string): string[] {
  const tags: string[] = [];
  for (const match of source.matchAll(/<form[\s>]/g)) {
    let depth = 0;
    let end = match.index;
    for (let i = match.index + 5; i < source.length; i++) {
      const c = source[i];
      if (c === '{') depth++;
      else if (c === '}') depth--;
      else if (c === '>' && depth === 0 && source[i - 1] !== '=') {
        end = i;
        break;
      }
    }
    tags.push(source.slice(match.index, end + 1));
  }
  return tags;
}

describe('forms of the subscriber screens', () => {
  it('all set noValidate, so required fields answer with the portal’s own message', () => {
    const root = path.resolve(__dirname, '../../../engine');
    const missing: string[] = [];
    let forms = 0;
    for (const file of sources(root)) {
      for (const tag of formTags(readFileSync(file, 'utf8'))) {
        forms++;
        if (!/\bnoValidate\b/.test(tag)) missing.push(`${path.relative(root, file)}: ${tag.slice(0, 80)}`);
      }
    }
    expect(forms).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
