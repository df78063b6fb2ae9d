import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** The studio is operator code; nothing of it and no @rjsf code reaches a subscriber's bundle. */
describe('the studio stays out of subscriber bundles', () => {
  it('no engine source imports @rjsf or the studio', () => {
    const offenders = filesUnder(path.join(ROOT, 'engine'))
      .filter((file) => /\.(ts|tsx)$/.test(file))
      .filter((file) => /from ['"](@rjsf\/|[./]+\/studio\/)/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });

  const distDir = process.env.PORTAL_DIST_DIR
    ? path.resolve(process.env.PORTAL_DIST_DIR)
    : path.join(ROOT, 'dist');
  const tenantDirs = existsSync(distDir)
    ? readdirSync(distDir).filter(
        (name) => !name.startsWith('.') && statSync(path.join(distDir, name)).isDirectory(),
      )
    : [];

  it.skipIf(tenantDirs.length === 0)('no file of a built tenant (dist/<tenant>/) contains "rjsf"', () => {
    const offenders = tenantDirs
      .flatMap((tenant) => filesUnder(path.join(distDir, tenant)))
      .filter((file) => readFileSync(file, 'utf8').includes('rjsf'));
    expect(offenders).toEqual([]);
  });

  it('the built studio, when there is one, lives beside the engine build and does contain rjsf', () => {
    const index = path.join(distDir, '.studio', 'index.html');
    if (!existsSync(index)) return;
    const assets = filesUnder(path.join(distDir, '.studio', 'assets')).filter((file) => file.endsWith('.js'));
    expect(assets.some((file) => readFileSync(file, 'utf8').includes('rjsf'))).toBe(true);
  });
});
