/**
 * The screenshot comparison of `portal preview --shots DIR --compare OLD_DIR`: what
 * counts as changed, added and removed, the diff images, and the report's order.
 */
import { mkdirSync, mkdtempSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import {
  changedShare,
  compareShotFolders,
  formatComparison,
  listShots,
} from '../../cli/preview/compareShots';
import { shotReportHtml } from '../../cli/preview/shotReport';

/** A white image with an optional black block (x, y, size). */
function png(width: number, height: number, block?: { x: number; y: number; size: number }): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(255);
  if (block) {
    for (let y = block.y; y < block.y + block.size; y++) {
      for (let x = block.x; x < block.x + block.size; x++) {
        const i = (y * width + x) * 4;
        image.data[i] = image.data[i + 1] = image.data[i + 2] = 0;
      }
    }
  }
  return PNG.sync.write(image);
}

function folder(files: Record<string, Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-shots-test-'));
  for (const [file, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), data);
  }
  return dir;
}

describe('compareShotFolders', () => {
  it('sorts changed shots first (largest change first), then added, removed and unchanged, and writes a diff image per change', () => {
    const oldDir = folder({
      'acme/orders.360.de.png': png(20, 20),
      'acme/faq.360.de.png': png(20, 20),
      'acme/login.360.de.png': png(20, 20),
      'acme/contact.360.de.png': png(20, 20),
    });
    const newDir = folder({
      'acme/orders.360.de.png': png(20, 20, { x: 0, y: 0, size: 2 }),
      'acme/faq.360.de.png': png(20, 20, { x: 5, y: 5, size: 10 }),
      'acme/login.360.de.png': png(20, 20),
      'acme/upgrade.360.de.png': png(20, 20),
    });
    const results = compareShotFolders(newDir, oldDir);
    expect(results.map((r) => [r.status, r.file])).toEqual([
      ['changed', 'acme/faq.360.de.png'],
      ['changed', 'acme/orders.360.de.png'],
      ['added', 'acme/upgrade.360.de.png'],
      ['removed', 'acme/contact.360.de.png'],
      ['unchanged', 'acme/login.360.de.png'],
    ]);
    expect(results[0].changedPixels).toBe(100);
    expect(results[0].ratio).toBeCloseTo(100 / 400);
    expect(results[1].changedPixels).toBe(4);
    expect(existsSync(path.join(newDir, 'diff/acme/faq.360.de.png'))).toBe(true);
    expect(existsSync(path.join(newDir, 'diff/acme/login.360.de.png'))).toBe(false);
    // The diff folder is not taken for shots of its own on the next comparison.
    expect(listShots(newDir)).not.toContain('diff/acme/faq.360.de.png');
    expect(formatComparison(results)).toContain('2 changed, 1 added, 1 removed, 1 unchanged');
  });

  it('compares shots of different heights on the larger canvas: the grown part counts as changed', () => {
    const oldDir = folder({ 'acme/orders.360.en.png': png(10, 10) });
    const newDir = folder({ 'acme/orders.360.en.png': png(10, 15) });
    const [result] = compareShotFolders(newDir, oldDir);
    expect(result.status).toBe('changed');
    expect(result.sizeChange).toBe('10×10 → 10×15');
    expect(result.changedPixels).toBe(50);
    const diff = PNG.sync.read(readFileSync(path.join(newDir, result.diff!)));
    expect([diff.width, diff.height]).toEqual([10, 15]);
  });
});

describe('the share of changed pixels', () => {
  it('says a change too small for two decimals is under 0.01 %, with its pixel count', () => {
    expect(changedShare({ ratio: 37 / 1_000_000, changedPixels: 37 })).toBe('< 0.01 % of pixels (37 pixels)');
    expect(changedShare({ ratio: 1 / 4, changedPixels: 1 })).toBe('25.00 % of pixels (1 pixel)');
    expect(changedShare({ ratio: 0, changedPixels: 0 })).toBe('0.00 % of pixels (0 pixels)');
  });
});

describe('the report', () => {
  it('shows old, new and diff side by side with the share of changed pixels, linking the old folder relatively', () => {
    const html = shotReportHtml(
      [
        {
          file: 'acme/faq.360.de.png',
          status: 'changed',
          ratio: 0.25,
          changedPixels: 100,
          diff: 'diff/acme/faq.360.de.png',
        },
        { file: 'acme/login.360.de.png', status: 'unchanged', ratio: 0, changedPixels: 0 },
      ],
      '/shots/new',
      '/shots/old',
    );
    expect(html).toContain('25.00 % of pixels (100 pixels) changed');
    expect(html).toContain('src="../old/acme/faq.360.de.png"');
    expect(html).toContain('src="acme/faq.360.de.png"');
    expect(html).toContain('src="diff/acme/faq.360.de.png"');
    expect(html).toContain('<summary>1 unchanged</summary>');
    expect(html.indexOf('faq.360.de.png')).toBeLessThan(html.indexOf('login.360.de.png'));
  });
});
