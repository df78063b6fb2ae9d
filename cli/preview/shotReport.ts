/**
 * report.html of `portal preview --shots DIR --compare OLD_DIR`: one row per screenshot, changed
 * first (largest share of changed pixels first), each with the old, the new and the diff image side
 * by side (pixelmatch paints changed pixels red on a faded copy of the old image); added and removed
 * shots next; unchanged ones folded away at the end. Images are linked relatively, so the report
 * opens from disk and keeps working when both folders are moved together.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { changedShare, type ShotComparison } from './compareShots';

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
const href = (file: string) => file.split(path.sep).join('/').split('/').map(encodeURIComponent).join('/');

function figure(label: string, src: string | undefined): string {
  return src
    ? `<figure><figcaption>${label}</figcaption><a href="${escape(href(src))}"><img src="${escape(href(src))}" alt="${label} screenshot" loading="lazy"></a></figure>`
    : `<figure><figcaption>${label}</figcaption><p class="none">none</p></figure>`;
}

export function shotReportHtml(results: readonly ShotComparison[], newDir: string, oldDir: string): string {
  const oldPrefix = path.relative(newDir, oldDir) || '.';
  const row = (r: ShotComparison) => {
    const percent = r.ratio !== undefined ? `${changedShare(r)} changed` : '';
    const oldSrc = r.status === 'added' ? undefined : path.join(oldPrefix, r.file);
    const newSrc = r.status === 'removed' ? undefined : r.file;
    return `<section class="shot ${r.status}"><h3><span class="badge">${r.status}</span> ${escape(r.file)} <small>${escape(percent)}${r.sizeChange ? ` · size ${escape(r.sizeChange)}` : ''}</small></h3>
<div class="images">${figure('old', oldSrc)}${figure('new', newSrc)}${r.status === 'changed' ? figure('diff', r.diff) : ''}</div></section>`;
  };
  const count = (status: string) => results.filter((r) => r.status === status).length;
  const shown = results.filter((r) => r.status !== 'unchanged');
  const unchanged = results.filter((r) => r.status === 'unchanged');
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Screenshot comparison</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;color:#1a1a1a}h1{font-size:1.4rem}h3{font-size:1rem;margin:.25rem 0;overflow-wrap:anywhere}small{color:#555;font-weight:normal}
.shot{border-top:1px solid #ccc;padding:.75rem 0}.images{display:flex;gap:1rem;align-items:flex-start;overflow-x:auto}figure{margin:0;flex:0 0 auto;max-width:32%}
figure img{max-width:100%;border:1px solid #999;display:block}figcaption{font-size:.8rem;font-weight:bold}.badge{display:inline-block;padding:0 .4rem;border-radius:3px;background:#eee;font-size:.8rem}
.changed .badge{background:#b00020;color:#fff}.added .badge{background:#1b5e20;color:#fff}.removed .badge{background:#5d4037;color:#fff}.none{color:#595959}</style></head>
<body><main><h1>Screenshot comparison</h1>
<p>New: <code>${escape(newDir)}</code>, old: <code>${escape(oldDir)}</code>. ${count('changed')} changed, ${count('added')} added, ${count('removed')} removed, ${count('unchanged')} unchanged.
In the diff image changed pixels are red over a faded copy of the old screenshot (yellow: anti-aliasing, not counted); a screenshot whose size changed is compared on the larger canvas.</p>
${shown.map(row).join('\n') || '<p>Nothing changed.</p>'}
${unchanged.length ? `<details><summary>${unchanged.length} unchanged</summary><ul>${unchanged.map((r) => `<li>${escape(r.file)}</li>`).join('')}</ul></details>` : ''}
</main></body></html>`;
}

export function writeShotReport(results: readonly ShotComparison[], newDir: string, oldDir: string): string {
  const file = path.join(newDir, 'report.html');
  writeFileSync(file, shotReportHtml(results, path.resolve(newDir), path.resolve(oldDir)));
  return file;
}
