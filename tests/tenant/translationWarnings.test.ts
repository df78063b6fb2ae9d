import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatIssueWithHint,
  loadTenantFiles,
  validateTenantSource,
  type ValidationContext,
} from '../../tenant';
import { createProgram } from '../../cli/program';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = {
  knownTextKeys: new Set(['shell.logout']),
  themePresets: { classic: makeThemePreset() },
};

/** A bilingual tenant with a German-only announcement and menu link, written out in full so positions are pinned. */
const GERMAN_ONLY_TEXTS = `{
  "id": "acme",
  "name": "Acme Zeitung",
  "defaultLocale": "de-DE",
  "locales": ["de-DE", "en-GB"],
  "contact": { "fallbackEmail": "service@acme.example", "fallbackPhone": "+49 30 1234567" },
  "theme": { "preset": "classic" },
  "features": ["announcement", "external-navigation"],
  "announcement": { "html": { "de-DE": "<p>Neu: das E-Paper</p>" } },
  "externalNavigationLinks": [
    { "text": { "de-DE": "Heftarchiv", "en-GB": "Back issues" }, "url": "https://www.acme.example/archiv" },
    { "text": { "de-DE": "Shop" }, "url": "https://shop.acme.example/" }
  ],
  "privacy": { "controller": { "name": "Acme GmbH", "addressLines": ["Berlin"] }, "contactEmail": "datenschutz@acme.example", "supervisoryAuthority": { "name": "BlnBDI" } }
}`;

describe('portal validate warns about texts missing in an offered locale', () => {
  it('names the file, line, column and setting of each text without the offered locale, with a fix', () => {
    const { tenant, issues, warnings } = validateTenantSource(FILE, GERMAN_ONLY_TEXTS, ctx);
    expect(issues).toEqual([]);
    expect(tenant?.id).toBe('acme');
    expect(warnings.map(formatIssueWithHint)).toEqual([
      'tenants/acme.json:9:29 /announcement/html warning: no en-GB text although the tenant offers en-GB: English screens show the de-DE text here\n' +
        '    add "en-GB": "…" next to "de-DE", or remove "en-GB" from locales',
      'tenants/acme.json:12:15 /externalNavigationLinks/1/text warning: no en-GB text although the tenant offers en-GB: English screens show the de-DE text here\n' +
        '    add "en-GB": "…" next to "de-DE", or remove "en-GB" from locales',
    ]);
  });

  it('finds every per-locale setting through the schema, nested in lists (FAQ, opt-ins)', () => {
    const tenant = makeTenant({
      locales: ['en-GB', 'de-DE'],
      defaultLocale: 'en-GB',
      faq: {
        entries: [
          {
            id: 'q',
            title: { 'en-GB': 'Question', 'de-DE': 'Frage' },
            content: { 'en-GB': '<p>Answer</p>' },
          },
        ],
      },
    });
    const { warnings } = validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx);
    expect(warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      '/faq/entries/0/content no de-DE text although the tenant offers de-DE: German screens show the en-GB text here',
    ]);
  });

  it('does not warn for a tenant that offers one language, nor about text overrides', () => {
    const tenant = makeTenant({
      locales: ['de-DE'],
      features: ['announcement'],
      announcement: { html: { 'de-DE': '<p>Hinweis</p>' } },
      texts: { 'de-DE': { 'shell.logout': 'Tschüss' } },
    });
    const { issues, warnings } = validateTenantSource(FILE, JSON.stringify(tenant), ctx);
    expect(issues).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('asks for a text per locale where a tenant file still has a plain announcement string', () => {
    const tenant = makeTenant({
      features: ['announcement'],
      announcement: { html: '<p>Hinweis</p>' as never },
    });
    const [issue] = validateTenantSource(FILE, JSON.stringify(tenant), ctx).issues;
    expect([issue.pointer, issue.message, issue.hint]).toEqual([
      '/announcement/html',
      'expected an object but found the string "<p>Hinweis</p>"',
      'write one text per locale, for example {"de-DE": "…", "en-GB": "…"}',
    ]);
  });

  it('refuses two menu links with the same text in a locale, since the text is also the route', () => {
    const tenant = makeTenant({
      features: ['external-navigation'],
      externalNavigationLinks: [
        { text: { 'de-DE': 'Archiv', 'en-GB': 'Archive' }, url: 'https://a.example/' },
        { text: { 'de-DE': 'Shop', 'en-GB': 'Archive' }, url: 'https://b.example/' },
      ],
    });
    const { issues } = validateTenantSource(FILE, JSON.stringify(tenant), ctx);
    expect(issues.map((i) => `${i.pointer} ${i.message}`)).toEqual([
      '/externalNavigationLinks/1/text/en-GB duplicate navigation link text "Archive" (also at /externalNavigationLinks/0/text)',
    ]);
  });

  it('leaves every demo tenant without a warning: all their texts exist in every offered locale', () => {
    const { issues, warnings } = loadTenantFiles();
    expect(issues).toEqual([]);
    expect(warnings.map(formatIssueWithHint)).toEqual([]);
  });
});

describe('portal validate prints warnings but still passes', () => {
  let output: string[];
  beforeEach(() => {
    output = [];
    process.exitCode = undefined;
    vi.spyOn(console, 'error').mockImplementation((...args) => void output.push(args.join(' ')));
    vi.spyOn(console, 'log').mockImplementation((...args) => void output.push(args.join(' ')));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('prints the warning with its position and exits 0; --json lists it under warnings', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-validate-'));
    const file = path.join(dir, 'acme.json');
    writeFileSync(file, GERMAN_ONLY_TEXTS);
    await createProgram().parseAsync(['node', 'portal', 'validate', file]);
    expect(process.exitCode ?? 0).toBe(0);
    const text = output.join('\n');
    expect(text).toContain(
      'acme.json:9:29 /announcement/html warning: no en-GB text although the tenant offers en-GB',
    );
    expect(text).toMatch(/✓ 1 tenant file\(s\) valid\. 2 warning\(s\)\./);

    output = [];
    await createProgram().parseAsync(['node', 'portal', 'validate', '--json', file]);
    const report = JSON.parse(output.join('\n'));
    expect(report.valid).toBe(true);
    expect(
      report.warnings.map((w: { pointer: string; severity: string }) => [w.pointer, w.severity]),
    ).toEqual([
      ['/announcement/html', 'warning'],
      ['/externalNavigationLinks/1/text', 'warning'],
    ]);
  });
});
