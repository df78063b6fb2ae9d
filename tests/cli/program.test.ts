import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';

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

async function run(...args: string[]) {
  await createProgram().parseAsync(['node', 'portal', ...args]);
  return { exitCode: process.exitCode ?? 0, text: output.join('\n') };
}

describe('portal validate', () => {
  it('passes every demo tenant', async () => {
    const result = await run('validate');
    expect(result.exitCode).toBe(0);
    expect(result.text).toMatch(/✓ \d+ tenant file\(s\) valid\./);
  });

  it('reports every problem of a file at once with position, pointer and fix, and exits 1', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-validate-'));
    const file = path.join(dir, 'acme.json');
    writeFileSync(
      file,
      JSON.stringify(
        {
          id: 'acme',
          name: 'Acme',
          defaultLocale: 'de-DE',
          features: ['cancelation'],
          logoUrll: 'https://x.example/l.svg',
          contact: { fallbackEmail: 'a@b.example', fallbackPhone: '+49 30 1234567' },
          theme: { preset: 'classic' },
        },
        null,
        2,
      ),
    );
    const result = await run('validate', file);
    expect(result.exitCode).toBe(1);
    expect(result.text).toContain(
      `${file}:6:5 /features/0 unknown feature "cancelation". Did you mean "cancellation"?`,
    );
    expect(result.text).toContain('/logoUrll unknown property "logoUrll". Did you mean "logoUrl"?');
    expect(result.text).toMatch(/2 problem\(s\) found\./);
  });

  it('checks every file of a folder it is given, and says when a path names nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-validate-'));
    await run('new', 'city-herald', '--dir', dir);
    await run('new', 'river-post', '--dir', dir);
    const folder = await run('validate', `${dir}/`);
    expect(folder.exitCode).toBe(0);
    expect(folder.text).toContain('✓ 2 tenant file(s) valid.');
    // A folder and a file in it: each file once, not a clash with itself.
    const both = await run('validate', `${dir}/`, path.join(dir, 'river-post.json'));
    expect(both.text).toContain('✓ 2 tenant file(s) valid.');
    // A folder without tenant files checks nothing: that is no success.
    const empty = mkdtempSync(path.join(tmpdir(), 'portal-validate-empty-'));
    await expect(run('validate', `${empty}/`)).rejects.toThrow(/holds no tenant file/);
    const missing = await run('validate', path.join(dir, 'elsewhere'));
    expect(missing.exitCode).toBe(1);
    expect(missing.text).toContain(`${path.join(dir, 'elsewhere')}:1:1 file not found`);
  });

  it('prints machine-readable issues with --json', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-validate-'));
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{\n  "id": "broken",\n  "name": \n}');
    const result = await run('validate', '--json', file);
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.text);
    expect(report.valid).toBe(false);
    expect(report.issues[0]).toMatchObject({ line: 4, column: 1 });
  });
});

describe('portal new', () => {
  it('writes a tenant file that validates, and refuses to overwrite it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-new-'));
    await run('new', 'city-herald', '--dir', dir);
    const file = path.join(dir, 'city-herald.json');
    // Its $schema leads to the tenant schema from wherever the file is, for an editor to find.
    const schema = JSON.parse(readFileSync(file, 'utf8')).$schema as string;
    expect(existsSync(path.resolve(dir, schema))).toBe(true);
    // Outside tenants/, the next commands are told the variable that finds the file by its id.
    expect(output.join('\n')).toContain(
      `Next: PORTAL_TENANTS_DIR=${dir} npx portal validate city-herald && PORTAL_TENANTS_DIR=${dir} npx portal dev city-herald`,
    );
    output = [];
    expect((await run('validate', file)).exitCode).toBe(0);
    await expect(run('new', 'city-herald', '--dir', dir)).rejects.toThrow(/exists already. Use --force/);
  });

  it('refuses an id that is not kebab-case', async () => {
    await expect(run('new', 'City Herald')).rejects.toThrow(/not a valid tenant id/);
  });
});
