import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownTextKeys, loadTenantFiles, loadThemePresets } from '../../tenant';
import { TENANT_FILE_MAX_BYTES } from '../../tenant/loadTenants';
import { makeTenant, makeThemePreset } from '../support/builders';

let root: string;

function write(path: string, content: unknown): string {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'portal-tenants-'));
  write('themes/classic.json', makeThemePreset());
  write('engine/core/texts.json', {
    'de-DE': { 'shell.logout': 'Abmelden' },
    'en-GB': { 'shell.logout': 'Log out' },
  });
  write('engine/features/faq/texts.json', {
    'de-DE': { 'faq.title': 'Häufige Fragen' },
    'en-GB': { 'faq.heading': 'FAQ' },
  });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('loadTenantFiles', () => {
  it('loads every tenants/*.json and returns the valid tenants resolved', () => {
    write('tenants/acme.json', makeTenant());
    write('tenants/bravo.json', makeTenant({ id: 'bravo', hosts: ['bravo.localhost'] }));
    const { tenants, issues } = loadTenantFiles(undefined, { rootDir: root });
    expect(issues).toEqual([]);
    expect(tenants.map((t) => t.id)).toEqual(['acme', 'bravo']);
    expect(tenants[0].themeTokens.name).toBe('Test preset');
  });

  it('refuses a host claimed by two tenants, reporting it in the second file', () => {
    write('tenants/acme.json', makeTenant());
    write('tenants/bravo.json', makeTenant({ id: 'bravo', hosts: ['bravo.localhost', 'ACME.localhost'] }));
    const { tenants, issues } = loadTenantFiles(undefined, { rootDir: root });
    expect(tenants.map((t) => t.id)).toEqual(['acme']);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      pointer: '/hosts/1',
      line: 7,
      column: 5,
      message: expect.stringMatching(
        /^host "ACME.localhost" is also used by tenant "acme" \(.*acme\.json\)$/,
      ),
    });
    expect(issues[0].file).toContain('bravo.json');
    // The file read second is told, and the other may be the one to change: the hint names both.
    expect(issues[0].hint).toMatch(
      /^a host name may belong to one tenant only: take it out of this file or out of .*acme\.json$/,
    );
  });

  it("takes a host with DNS's trailing dot for the same name", () => {
    write('tenants/acme.json', makeTenant());
    write('tenants/bravo.json', makeTenant({ id: 'bravo', hosts: ['acme.localhost.'] }));
    const { tenants, issues } = loadTenantFiles(undefined, { rootDir: root });
    expect(tenants.map((t) => t.id)).toEqual(['acme']);
    expect(issues.map((i) => [i.pointer, i.message])).toEqual([
      ['/hosts/0', expect.stringMatching(/^host "acme.localhost." is also used by tenant "acme"/)],
    ]);
  });

  it('names every other tenant that claims the host, so the hint clears the clash', () => {
    write('tenants/acme.json', makeTenant());
    write('tenants/bravo.json', makeTenant({ id: 'bravo', hosts: ['acme.localhost'] }));
    const charlie = write('tenants/charlie.json', makeTenant({ id: 'charlie', hosts: ['acme.localhost'] }));
    const { issues } = loadTenantFiles([charlie], { rootDir: root });
    expect(issues.map((i) => [i.pointer, i.message, i.hint])).toEqual([
      [
        '/hosts/0',
        expect.stringMatching(
          /^host "acme.localhost" is also used by tenant "acme" \(.*acme\.json\) and tenant "bravo" \(.*bravo\.json\)$/,
        ),
        expect.stringMatching(/out of .*acme\.json and .*bravo\.json$/),
      ],
    ]);
  });

  it('says a host clash with a file beside the one asked for, and with a file that has errors of its own', () => {
    const acme = write('tenants/acme.json', makeTenant());
    // An id that does not match its file name: the file is refused, and still claims its host.
    write('tenants/bravo.json', makeTenant({ id: 'bravissimo', hosts: ['acme.localhost'] }));
    const alone = loadTenantFiles([acme], { rootDir: root });
    expect(alone.tenants).toEqual([]);
    expect(alone.issues.map((i) => [i.pointer, i.message])).toEqual([
      [
        '/hosts/0',
        expect.stringMatching(
          /^host "acme.localhost" is also used by tenant "bravissimo" \(.*bravo\.json\)$/,
        ),
      ],
    ]);
    const all = loadTenantFiles(undefined, { rootDir: root });
    expect(all.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^host "acme.localhost" is also used by tenant "acme"/)]),
    );
  });

  it('validates only the files it is given and reports a missing one', () => {
    const acme = write('tenants/acme.json', makeTenant());
    write('tenants/broken.json', '{');
    const { tenants, issues } = loadTenantFiles([acme, join(root, 'tenants/nope.json')], { rootDir: root });
    expect(tenants.map((t) => t.id)).toEqual(['acme']);
    expect(issues.map((i) => [i.line, i.column, i.message])).toEqual([[1, 1, 'file not found']]);
  });

  it('refuses a file larger than a tenant file can be, without reading it', () => {
    const file = write('tenants/huge.json', `{"id":"huge","pad":"${'x'.repeat(TENANT_FILE_MAX_BYTES)}"}`);
    const { tenants, issues } = loadTenantFiles([file], { rootDir: root });
    expect(tenants).toEqual([]);
    expect(issues.map((i) => i.message)).toEqual(['the file is larger than 4 MB']);
  });

  it('reports every file at once and leaves invalid tenants out', () => {
    write('tenants/acme.json', makeTenant({ features: ['faq', 'cancelation'] as never }));
    write(
      'tenants/bravo.json',
      makeTenant({ id: 'bravo', hosts: [], texts: { 'de-DE': { 'faq.titel': 'Fragen' } } }),
    );
    const { tenants, issues } = loadTenantFiles(undefined, { rootDir: root });
    expect(tenants).toEqual([]);
    expect(issues.map((i) => `${i.pointer} ${i.message}`)).toEqual([
      '/features/1 unknown feature "cancelation". Did you mean "cancellation"?',
      '/texts/de-DE/faq.titel unknown text key "faq.titel". Did you mean "faq.title"?',
    ]);
  });

  it('reports a broken theme preset instead of pretending it does not exist', () => {
    write(
      'themes/dark.json',
      makeThemePreset({ colors: { ...makeThemePreset().colors, text: '#222222', background: '#111111' } }),
    );
    write('tenants/acme.json', makeTenant());
    const { issues } = loadTenantFiles(undefined, { rootDir: root });
    expect(issues.map((i) => `${i.pointer} ${i.message}`)).toEqual([
      '/colors/text insufficient contrast between text (#222222) and background (#111111): 1.18:1, WCAG AA needs at least 4.5:1',
      '/colors/mutedText insufficient contrast between mutedText (#595959) and background (#111111): 2.69:1, WCAG AA needs at least 4.5:1',
      '/colors/link insufficient contrast between link (#1b3a6b) and background (#111111): 1.67:1, WCAG AA needs at least 4.5:1',
    ]);
    expect(issues[0].file).toContain('themes/dark.json');
  });
});

describe('knownTextKeys and loadThemePresets', () => {
  it('collect the text keys of the shell and of every feature, in any locale', () => {
    expect([...knownTextKeys(root)].sort()).toEqual(['faq.heading', 'faq.title', 'shell.logout']);
  });

  it('load presets by file name', () => {
    expect(Object.keys(loadThemePresets(root))).toEqual(['classic']);
  });
});
