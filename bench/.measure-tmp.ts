import { buildEngine } from '../cli/build/engineBuild';
import { pageScripts, printBundleMap } from './bundleMap';
const out = process.argv[2] ?? '/tmp/measure/engine';
await buildEngine(out);
for (const page of ['/login', '/orders'] as const) {
  const s = pageScripts(out, page);
  const total = s.reduce((a, b) => a + b.gzipped, 0);
  console.log(page, total, (total / 1024).toFixed(1), s.map((x) => `${x.file}:${x.gzipped}`).join(' '));
}
if (process.argv[3]) printBundleMap(out);
