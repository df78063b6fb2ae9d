/**
 * The docs' links: every relative link and `#anchor` in README.md, CHANGELOG.md and docs/*.md
 * resolves (the file exists; the anchor is a heading's slug as GitHub makes it), and every page
 * under docs/ is reachable from the README by following links.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const docsDir = path.join(root, 'docs');
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text without fenced code blocks and inline code, where a link is no link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's heading anchor (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings, duplicates numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = githubSlug(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  target: string;
  line: number;
}

/** Inline links and images `[text](target "title")` and reference definitions `[id]: target`. */
function linksOf(page: string, markdown: string): Link[] {
  const text = prose(markdown);
  const links: Link[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ page, target: match[1], line: lineOf(match.index) });
  }
  for (const match of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) {
    links.push({ page, target: match[1], line: lineOf(match.index) });
  }
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

const sources = new Map(pages.map((page) => [page, readFileSync(path.join(root, page), 'utf8')]));
const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(sources.get(file) ?? readFileSync(path.join(root, file), 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Where a relative link points, as a path from the repository root, and its anchor. */
function resolve(link: Link): { file: string; anchor: string | undefined } {
  const [pathPart, anchor] = link.target.split('#', 2);
  const file = pathPart
    ? path.relative(root, path.resolve(path.dirname(path.join(root, link.page)), decodeURI(pathPart)))
    : link.page;
  return {
    file: file.split(path.sep).join('/'),
    anchor: anchor === undefined ? undefined : decodeURI(anchor),
  };
}

describe('the docs’ links', () => {
  it('finds the README, the changelog and the topic pages', () => {
    expect(pages).toContain('README.md');
    expect(pages).toContain('CHANGELOG.md');
    expect(pages.filter((page) => page.startsWith('docs/')).length).toBeGreaterThanOrEqual(5);
  });

  it('makes anchors the way GitHub does', () => {
    expect(githubSlug('`portal dev`: the loop of editing a tenant file')).toBe(
      'portal-dev-the-loop-of-editing-a-tenant-file',
    );
    expect(githubSlug('Engine: feature folder → registry → shell')).toBe(
      'engine-feature-folder--registry--shell',
    );
    expect(githubSlug('E-invoices (ZUGFeRD / Factur-X, XRechnung)')).toBe(
      'e-invoices-zugferd--factur-x-xrechnung',
    );
    expect(githubSlug('Whose data is it: the order system’s records')).toBe(
      'whose-data-is-it-the-order-systems-records',
    );
    expect([...anchorsOf('## A\n\n```\n## B\n```\n\n## A\n')]).toEqual(['a', 'a-1']);
  });

  it('resolves every relative link and anchor', () => {
    const broken: string[] = [];
    for (const [page, markdown] of sources) {
      for (const link of linksOf(page, markdown)) {
        if (isExternal(link.target)) continue;
        const { file, anchor } = resolve(link);
        const where = `${link.page}:${link.line} ${link.target}`;
        if (file.startsWith('..') || !existsSync(path.join(root, file))) {
          broken.push(`${where}: no file ${file}`);
          continue;
        }
        if (anchor === undefined || anchor === '') continue;
        if (!file.endsWith('.md') || statSync(path.join(root, file)).isDirectory()) {
          broken.push(`${where}: an anchor into ${file}, which is no Markdown page`);
          continue;
        }
        if (!anchorsOfFile(file).has(anchor)) broken.push(`${where}: no heading #${anchor} in ${file}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reaches every docs page from the README', () => {
    const reached = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const page = queue.shift()!;
      const markdown = sources.get(page);
      if (markdown === undefined) continue;
      for (const link of linksOf(page, markdown)) {
        if (isExternal(link.target)) continue;
        const { file } = resolve(link);
        if (sources.has(file) && !reached.has(file)) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });
});
