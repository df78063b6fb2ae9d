/**
 * `portal preview --shots DIR --compare OLD_DIR`: a pixel diff of every screenshot in DIR against
 * the one of the same name in OLD_DIR (pixelmatch over pngjs), written to DIR/diff/, and a list of
 * what changed, was added or went away. Screenshots of different sizes (a page grew) are compared
 * on the larger canvas, the missing part counting as changed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

export type ShotStatus = 'changed' | 'added' | 'removed' | 'unchanged';

export interface ShotComparison {
  /** Path relative to the folders, `<tenant>/<route-id>.<width>.<lang>.png`. */
  file: string;
  status: ShotStatus;
  /** Share of changed pixels of the larger of the two images, 0..1 (changed and unchanged only). */
  ratio?: number;
  changedPixels?: number;
  /** `old WxH → new WxH` when the size differs. */
  sizeChange?: string;
  /** The diff image, relative to the new folder (changed only). */
  diff?: string;
}

/** The folder the diff images are written to, inside the new shots folder (and left out of listings). */
export const DIFF_DIR = 'diff';

/** Every PNG under a folder (relative paths, `/`-separated, sorted), the diff folder aside. */
export function listShots(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (child !== DIFF_DIR) walk(child);
      } else if (entry.name.endsWith('.png')) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

/** Pads an image to width × height with transparent pixels (pixelmatch needs equal sizes). */
function padded(image: PNG, width: number, height: number): Buffer {
  if (image.width === width && image.height === height) return image.data;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < image.height; y++)
    image.data.copy(out, y * width * 4, y * image.width * 4, (y + 1) * image.width * 4);
  return out;
}

/** Compares two PNG files; writes the diff image when they differ. Threshold as pixelmatch's (0.1): anti-aliasing noise is not a change. */
export function comparePngs(
  oldFile: string,
  newFile: string,
  diffFile: string,
  threshold = 0.1,
): { changedPixels: number; ratio: number; sizeChange?: string } {
  const before = PNG.sync.read(readFileSync(oldFile));
  const after = PNG.sync.read(readFileSync(newFile));
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  const diff = new PNG({ width, height });
  const changedPixels = pixelmatch(
    padded(before, width, height),
    padded(after, width, height),
    diff.data,
    width,
    height,
    { threshold, diffMask: false },
  );
  const sizeChange =
    before.width !== after.width || before.height !== after.height
      ? `${before.width}×${before.height} → ${after.width}×${after.height}`
      : undefined;
  if (changedPixels > 0) {
    mkdirSync(path.dirname(diffFile), { recursive: true });
    writeFileSync(diffFile, PNG.sync.write(diff));
  }
  return { changedPixels, ratio: changedPixels / (width * height), ...(sizeChange ? { sizeChange } : {}) };
}

/** Compares every shot of `newDir` with `oldDir`: changed first (largest change first), then added, removed, unchanged. */
export function compareShotFolders(newDir: string, oldDir: string): ShotComparison[] {
  const now = new Set(listShots(newDir));
  const before = new Set(listShots(oldDir));
  const results: ShotComparison[] = [];
  for (const file of now) {
    if (!before.has(file)) {
      results.push({ file, status: 'added' });
      continue;
    }
    const diff = `${DIFF_DIR}/${file}`;
    const { changedPixels, ratio, sizeChange } = comparePngs(
      path.join(oldDir, file),
      path.join(newDir, file),
      path.join(newDir, diff),
    );
    results.push(
      changedPixels > 0
        ? { file, status: 'changed', changedPixels, ratio, diff, ...(sizeChange ? { sizeChange } : {}) }
        : { file, status: 'unchanged', changedPixels, ratio },
    );
  }
  for (const file of before) if (!now.has(file)) results.push({ file, status: 'removed' });
  const order: Record<ShotStatus, number> = { changed: 0, added: 1, removed: 2, unchanged: 3 };
  return results.sort(
    (a, b) =>
      order[a.status] - order[b.status] || (b.ratio ?? 0) - (a.ratio ?? 0) || a.file.localeCompare(b.file),
  );
}

/**
 * How much of a shot changed, for the terminal and the report: the share with two decimals and the
 * pixel count, so a one-letter change reads "< 0.01 % (37 pixels)" rather than "0.00 %".
 */
export function changedShare(r: Pick<ShotComparison, 'ratio' | 'changedPixels'>): string {
  if (r.ratio === undefined) return '';
  const percent = r.ratio > 0 && r.ratio < 0.0001 ? '< 0.01' : (r.ratio * 100).toFixed(2);
  const pixels =
    r.changedPixels === undefined ? '' : ` (${r.changedPixels} pixel${r.changedPixels === 1 ? '' : 's'})`;
  return `${percent} % of pixels${pixels}`;
}

/** The terminal summary: one line per shot that is not unchanged, then the counts. */
export function formatComparison(results: readonly ShotComparison[]): string {
  const count = (status: ShotStatus) => results.filter((r) => r.status === status).length;
  const lines = results
    .filter((r) => r.status !== 'unchanged')
    .map(
      (r) =>
        `${r.status.padEnd(8)} ${r.file}${r.ratio !== undefined ? `  ${changedShare(r)}` : ''}${r.sizeChange ? `  (${r.sizeChange})` : ''}`,
    );
  lines.push(
    `${count('changed')} changed, ${count('added')} added, ${count('removed')} removed, ${count('unchanged')} unchanged`,
  );
  return lines.join('\n');
}
