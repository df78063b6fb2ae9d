/**
 * The insights page and its chart library (uPlot) are studio code; no subscriber bundle
 * holds them, and no built page carries the offer experiments. Like tests/cli/studioBundle.test.ts,
 * the built files are checked when there are some (dist/, or PORTAL_DIST_DIR).
 */
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

describe('the insights stay out of subscriber bundles', () => {
  it('no engine source imports uplot, the insights or their schema', () => {
    const offenders = filesUnder(path.join(ROOT, 'engine'))
      .filter((file) => /\.(ts|tsx)$/.test(file))
      .filter((file) =>
        /from ['"](uplot|[./]+\/(server\/insights|schemas\/generated\/retention-insights))/.test(
          readFileSync(file, 'utf8'),
        ),
      );
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

  it.skipIf(tenantDirs.length === 0)(
    'no file of a built tenant holds uPlot, the insights page or an offer experiment',
    () => {
      const offenders = tenantDirs
        .flatMap((tenant) => filesUnder(path.join(distDir, tenant)))
        .filter((file) =>
          /uPlot|offerExperiments|insights-chart|RetentionInsights/.test(readFileSync(file, 'utf8')),
        );
      expect(offenders).toEqual([]);
    },
  );

  it('the built studio, when there is one, holds the chart library', () => {
    if (!existsSync(path.join(distDir, '.studio', 'index.html'))) return;
    const assets = filesUnder(path.join(distDir, '.studio', 'assets')).filter((file) => file.endsWith('.js'));
    expect(assets.some((file) => readFileSync(file, 'utf8').includes('insights-chart'))).toBe(true);
  });
});
