import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES_DIR = path.resolve(__dirname, '../../engine/features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx)$/.test(name) ? [file] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, `import()` and `require()`. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const pattern of [
    /\b(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ]) {
    for (const match of source.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/**
 * "Features never import each other's folders" (docs/architecture.md "The folders": `engine/account/`):
 * what several features share lives in engine/account/, engine/ui/, engine/domain/ or
 * engine/core/; a feature may read the registry (engine/features/index.ts, types.ts) but no other
 * feature's folder.
 */
export function crossFeatureImports(featuresDir: string): string[] {
  const offences: string[] = [];
  for (const feature of readdirSync(featuresDir).filter((name) =>
    statSync(path.join(featuresDir, name)).isDirectory(),
  )) {
    const own = path.join(featuresDir, feature);
    for (const file of sourceFiles(own)) {
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const relative = path.relative(featuresDir, target);
        if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
        const targetFeature = relative.split(path.sep)[0];
        // `../index`, `../types`: the registry, not a feature.
        if (!relative.includes(path.sep)) continue;
        if (targetFeature !== feature)
          offences.push(
            `${path.relative(path.dirname(featuresDir), file)} imports '${specifier}' (feature "${targetFeature}")`,
          );
      }
    }
  }
  return offences;
}

describe('feature folders', () => {
  it('do not import one another', () => {
    expect(crossFeatureImports(FEATURES_DIR)).toEqual([]);
  });

  it('names the offending file and import', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(path.join(tmpdir(), 'features-'));
    mkdirSync(path.join(root, 'a'));
    mkdirSync(path.join(root, 'b'));
    writeFileSync(
      path.join(root, 'a', 'Screen.tsx'),
      "import { x } from '../b/x';\nimport { defineFeature } from '../types';\nconst y = () => import('../b/Lazy');\n",
    );
    writeFileSync(path.join(root, 'b', 'x.ts'), "export { z } from './z';\n");
    expect(crossFeatureImports(root)).toEqual([
      `${path.join(path.basename(root), 'a', 'Screen.tsx')} imports '../b/x' (feature "b")`,
      `${path.join(path.basename(root), 'a', 'Screen.tsx')} imports '../b/Lazy' (feature "b")`,
    ]);
  });
});
