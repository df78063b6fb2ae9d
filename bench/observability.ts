/**
 * `npm run bench`, 8. (docs/going-live.md "Operations"): what metrics and tracing cost the read path. GET
 * /api/subscriptions of the demo subscriber is loaded on the portal as `portal serve` runs it
 * without METRICS_PORT and OTEL_* (off); with metrics (request metrics, the endpoint scraped every
 * 5 s as Prometheus would); with metrics and every request traced, exported over OTLP to a local
 * sink (the goal: at least 0.9× off); and the same with 1 request in 10 and in 100 traced (the
 * sampler decides at the door, server/telemetry/tracing.ts). They run one after
 * the other on the same database, twice each, in turn, and the best run of each is compared.
 *
 * On its own: `npx tsx bench/observability.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { ROOT_DIR } from '../cli/paths';

interface ServerInfo {
  url: string;
  headers: Record<string, string>;
  readHeaders: Record<string, string>;
  paths: { read: string };
  metricsUrl?: string;
  tracing?: boolean;
}

async function spawnPortal(
  dataDir: string,
  observed: boolean,
  env: NodeJS.ProcessEnv,
): Promise<{ info: ServerInfo; child: ChildProcess }> {
  const args = ['portal', dataDir, ...(observed ? ['observed'] : [])];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT_DIR, 'bench', 'apiServer.ts'), ...args],
    {
      cwd: ROOT_DIR,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as ServerInfo);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before listening`)));
  });
  return { info, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

type Mode = 'off' | 'metrics' | 'traced' | 'sampled' | 'rare';

async function measure(dataDir: string, mode: Mode, otlp: string): Promise<number> {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('OTEL_')) delete env[key];
  const traced = mode === 'traced' || mode === 'sampled' || mode === 'rare';
  if (traced) Object.assign(env, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_SERVICE_NAME: 'portal-bench' });
  if (mode === 'sampled' || mode === 'rare')
    Object.assign(env, {
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: mode === 'sampled' ? '0.1' : '0.01',
    });
  const { info, child } = await spawnPortal(dataDir, mode !== 'off', env);
  if (mode !== 'off' && !info.metricsUrl) throw new Error('the observed server has no metrics endpoint');
  if (Boolean(info.tracing) !== traced) throw new Error(`tracing is not as asked (${mode})`);
  const scraper = info.metricsUrl
    ? setInterval(() => void fetch(info.metricsUrl!).then((answer) => answer.text()), 5_000)
    : undefined;
  try {
    const url = `${info.url}${info.paths.read}`;
    const headers = info.readHeaders;
    await autocannon({ url, headers, connections: 10, duration: 2, workers: 1 }); // warm-up
    const result = await autocannon({ url, headers, connections: 10, duration: 8, timeout: 10, workers: 1 });
    if (result.errors || result.non2xx)
      throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result.requests.average;
  } finally {
    if (scraper) clearInterval(scraper);
    await stop(child);
  }
}

export async function observabilitySection(work: string): Promise<void> {
  // The collector's place: takes every export and answers 200, as a healthy one does.
  let exports = 0;
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  const dataDir = path.join(work, 'observability');
  try {
    const runs: Record<Mode, number[]> = { off: [], metrics: [], traced: [], sampled: [], rare: [] };
    for (let round = 0; round < 2; round++)
      for (const mode of ['off', 'metrics', 'traced', 'sampled', 'rare'] as const)
        runs[mode].push(await measure(dataDir, mode, otlp));
    const best = (mode: Mode) => Math.max(...runs[mode]);
    const row = (label: string, mode: Mode) =>
      `   ${label.padEnd(42)} ${best(mode).toFixed(0).padStart(6)} req/s   runs ${runs[mode].map((r) => r.toFixed(0)).join(', ')}` +
      (mode === 'off' ? '' : `   ${(best(mode) / best('off')).toFixed(2)}× off`);
    console.log('\n8. Metrics and tracing: GET /api/subscriptions, 10 connections, 8 s, best of 2 runs each');
    console.log(row('off (no METRICS_PORT, no OTEL_*)', 'off'));
    console.log(row('metrics (scraped every 5 s)', 'metrics'));
    console.log(row('metrics and every request traced', 'traced') + '   (goal ≥ 0.9×)');
    console.log(row('metrics and 1 request in 10 traced', 'sampled'));
    console.log(row('metrics and 1 request in 100 traced', 'rare') + `   (${exports} OTLP exports in all)`);
  } finally {
    await new Promise((resolve) => sink.close(resolve));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-bench-observability-'));
  try {
    await observabilitySection(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
