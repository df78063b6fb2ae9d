import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyMinimalEdits } from '../../server/studio/minimalEdit';
import { lineDiff } from '../../server/studio/lineDiff';
import { validateTenantSource } from '../../tenant';

const ROOT = path.resolve(import.meta.dirname, '../..');
const source = readFileSync(path.join(ROOT, 'tenants', 'technikwelt.json'), 'utf8');
const tenant = () => JSON.parse(source) as Record<string, any>;

/** The lines that differ between two texts of the same length in lines. */
function changedLines(before: string, after: string): Array<[string, string]> {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.map((line, i) => [line, b[i]] as [string, string]).filter(([x, y]) => x !== y);
}

describe('studio save: minimal edits of a tenant file', () => {
  it('writes the unchanged tenant back byte for byte', () => {
    expect(applyMinimalEdits(source, tenant())).toBe(source);
  });

  it('changes only the line of a changed setting, keeping the $schema line, key order and inline arrays', () => {
    const next = tenant();
    next.name = 'Studio Verlag';
    next.theme.tokens.colors.primary = '#1b5e20';
    const after = applyMinimalEdits(source, next);
    expect(changedLines(source, after)).toEqual([
      ['  "name": "TechnikWelt Verlagsgruppe",', '  "name": "Studio Verlag",'],
      ['        "primary": "#9a3412",', '        "primary": "#1b5e20",'],
    ]);
    expect(after.split('\n')[1]).toBe('  "$schema": "../schemas/tenant.schema.json",');
    expect(validateTenantSource('tenants/technikwelt.json', after).issues).toEqual([]);
  });

  it("removes a cleared setting and adds a new one with the file's indentation", () => {
    const next = tenant();
    delete next.siteNoticeUrl;
    next.theme.tokens.colors.onPrimary = '#ffffff';
    const after = applyMinimalEdits(source, next);
    expect(after).not.toContain('"siteNoticeUrl"');
    expect(after).toMatch(/\n {8}"onPrimary": "#ffffff"/);
    expect(JSON.parse(after)).toEqual(next);
  });

  it('replaces an array whose length changed as a whole and keeps the rest untouched', () => {
    const next = tenant();
    next.hosts = [...next.hosts, 'neu.technikwelt.localhost'];
    const after = applyMinimalEdits(source, next);
    expect(JSON.parse(after)).toEqual(next);
    const diff = lineDiff(source, after, 0);
    expect(diff.filter((line) => line.kind === '-').map((line) => line.text)).toEqual([
      '  "hosts": ["technikwelt.localhost", "abo.technikwelt.localhost"],',
    ]);
  });
});

describe('studio diff', () => {
  it('shows a changed line as its removal then its addition, with context around it', () => {
    const diff = lineDiff('a\nb\nc\nd\ne\nf\ng', 'a\nb\nc\nD\ne\nf\ng', 1);
    expect(diff).toEqual([
      { kind: '@', text: '@@ line 3 @@' },
      { kind: ' ', text: 'c' },
      { kind: '-', text: 'd' },
      { kind: '+', text: 'D' },
      { kind: ' ', text: 'e' },
    ]);
  });

  it('starts every run of shown lines with where it is, so changes far apart never run together', () => {
    const lines = Array.from({ length: 20 }, (_, n) => `l${n + 1}`);
    const after = lines.map((line) => (line === 'l2' ? 'L2' : line === 'l15' ? 'L15' : line));
    expect(lineDiff(lines.join('\n'), after.join('\n'), 1)).toEqual([
      { kind: '@', text: '@@ line 1 @@' },
      { kind: ' ', text: 'l1' },
      { kind: '-', text: 'l2' },
      { kind: '+', text: 'L2' },
      { kind: ' ', text: 'l3' },
      { kind: '@', text: '@@ line 14 @@' },
      { kind: ' ', text: 'l14' },
      { kind: '-', text: 'l15' },
      { kind: '+', text: 'L15' },
      { kind: ' ', text: 'l16' },
    ]);
  });

  it('is empty when nothing changed', () => {
    expect(lineDiff(source, source)).toEqual([]);
  });
});

describe("studio save: new and replaced values in the file's style", () => {
  const fixture = [
    '{',
    '  "$schema": "../schemas/tenant.schema.json",',
    '  "publicationBlacklists": {',
    '    "holiday-redirect": ["TWD"],',
    '    "holiday-break": ["TWD"],',
    '    "e-card": ["TWS"]',
    '  },',
    '  "hosts": ["a.localhost", "b.localhost"]',
    '}',
    '',
  ].join('\n');

  it('removing the first blacklist and adding one leaves the neighbouring one-line lists alone', () => {
    const next = JSON.parse(fixture);
    delete next.publicationBlacklists['holiday-redirect'];
    next.publicationBlacklists.membership = ['SKT', 'SKE'];
    expect(applyMinimalEdits(fixture, next)).toBe(
      fixture
        .replace('    "holiday-redirect": ["TWD"],\n', '')
        .replace('    "e-card": ["TWS"]\n', '    "e-card": ["TWS"],\n    "membership": ["SKT", "SKE"]\n'),
    );
  });

  it('keeps a list written one item a line so when an item is added, and wraps a list too long for a line', () => {
    const listed = ['{', '  "features": [', '    "faq",', '    "renewal"', '  ]', '}', ''].join('\n');
    const next = { features: ['faq', 'renewal', 'announcement'] };
    expect(applyMinimalEdits(listed, next)).toBe(
      ['{', '  "features": [', '    "faq",', '    "renewal",', '    "announcement"', '  ]', '}', ''].join(
        '\n',
      ),
    );
    const long = {
      ...JSON.parse(fixture),
      hosts: Array.from({ length: 8 }, (_, i) => `portal-${i}.example.com`),
    };
    const written = applyMinimalEdits(fixture, long);
    expect(written).toContain('  "hosts": [\n    "portal-0.example.com",\n');
    expect(JSON.parse(written).hosts).toEqual(long.hosts);
  });

  it('removing the last setting takes the comma before it; removing the only one leaves {}', () => {
    const next = JSON.parse(fixture);
    delete next.publicationBlacklists['e-card'];
    expect(applyMinimalEdits(fixture, next)).toBe(
      fixture.replace(
        '    "holiday-break": ["TWD"],\n    "e-card": ["TWS"]\n',
        '    "holiday-break": ["TWD"]\n',
      ),
    );
    next.publicationBlacklists = {};
    expect(JSON.parse(applyMinimalEdits(fixture, next)).publicationBlacklists).toEqual({});
    expect(applyMinimalEdits(fixture, next)).toContain('  "publicationBlacklists": {},\n  "hosts"');
  });

  it('writes a new object setting one key a line at the right depth', () => {
    const next = tenant();
    next.theme.tokens.spacing = { unit: '8px' };
    const after = applyMinimalEdits(source, next);
    expect(JSON.parse(after)).toEqual(next);
    expect(after).toMatch(/\n {6}"spacing": \{\n {8}"unit": "8px"\n {6}\}/);
  });
});
