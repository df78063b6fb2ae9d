/**
 * `portal preview --shots DIR [--compare OLD_DIR]` end to end: the real CLI, its own
 * server and seeded database in a temp folder, Debian's Chromium; one tenant × two screens (one
 * signed out, one signed in with the demo user's real subscription id) × one width × one language,
 * so it stays within a few minutes, the build of the portals included.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasChromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
// Its own build, as the end-to-end suites do: a test run never overwrites the dist/ a developer serves.
const distDir = mkdtempSync(path.join(tmpdir(), 'portal-shots-dist-'));
const folders = [distDir];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function portal(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    // The shots take a fresh temp database of their own; PORTAL_DATA_DIR only keeps data/ out of reach.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-shots-data-'));
    folders.push(dataDir);
    const child = spawn(process.execPath, ['cli/bin.mjs', 'preview', ...args], {
      cwd: ROOT,
      env: { ...process.env, PORTAL_DIST_DIR: distDir, PORTAL_DATA_DIR: dataDir },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), 280_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

// The first run builds the portals (into distDir); the second serves that build.
const SHOT_ARGS = ['technikwelt', '--routes', 'faq,subscription', '--widths', '360', '--lang', 'de'];

describe.skipIf(!hasChromium)('portal preview --shots', () => {
  it(
    'takes the screenshots, then lists and reports what changed against an earlier folder',
    { timeout: 600_000 },
    async () => {
      const base = mkdtempSync(path.join(tmpdir(), 'portal-shots-'));
      folders.push(base);
      const before = path.join(base, 'before');
      const after = path.join(base, 'after');

      const first = await portal([...SHOT_ARGS, '--shots', before]);
      expect(first.code, first.err).toBe(0);
      expect(first.out).toContain('2 screenshot(s)');
      const faq = path.join(before, 'technikwelt/faq.360.de.png');
      const subscription = path.join(before, 'technikwelt/subscription.360.de.png');
      const image = PNG.sync.read(readFileSync(subscription));
      expect(image.width).toBe(360);

      // Someone "changes the FAQ": a black block painted into the earlier shot.
      const edited = PNG.sync.read(readFileSync(faq));
      for (let y = 10; y < 60; y++)
        for (let x = 10; x < 60; x++)
          edited.data.fill(0, (y * edited.width + x) * 4, (y * edited.width + x) * 4 + 3);
      writeFileSync(faq, PNG.sync.write(edited));

      const second = await portal([
        ...SHOT_ARGS,
        '--skip-build',
        '--shots',
        after,
        '--compare',
        before,
        '--fail-on-change',
      ]);
      expect(second.code, second.err).toBe(1);
      expect(second.out).toMatch(/changed\s+technikwelt\/faq\.360\.de\.png\s+[\d.]+ % of pixels/);
      expect(second.out).toContain('1 changed, 0 added, 0 removed, 1 unchanged');
      expect(existsSync(path.join(after, 'diff/technikwelt/faq.360.de.png'))).toBe(true);
      const report = readFileSync(path.join(after, 'report.html'), 'utf8');
      expect(report).toContain('src="../before/technikwelt/faq.360.de.png"');
      expect(report).toContain('src="diff/technikwelt/faq.360.de.png"');
    },
  );
});
