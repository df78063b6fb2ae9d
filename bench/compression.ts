/**
 * `npm run bench`, 3. (docs/testing.md "Speed and size"): what compressing `/api` answers costs
 * the read path. GET /api/subscriptions is loaded as it is and with `Accept-Encoding: br, gzip`,
 * each next to plain Express answering the same JSON the same way (its compressed baseline uses the
 * portal's own middleware, server/http/compression.ts), so the portal's ratio to plain Express is
 * seen with and without compression; and the bytes of one answer as it is, gzipped and with brotli.
 *
 * Called by bench/run.ts with the portal server it started; on its own
 * (`npx tsx bench/compression.ts`) it starts one, on the embedded PostgreSQL or DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { ROOT_DIR } from '../cli/paths';
import { DYNAMIC_BROTLI_QUALITY, DYNAMIC_COMPRESSION_THRESHOLD } from '../server/http/compression';

/** The portal's read path, already serving: its URL and the headers of a signed-in subscriber. */
export interface ReadPath {
  readUrl: string;
  readHeaders: Record<string, string>;
}

const ACCEPT_COMPRESSED = { 'accept-encoding': 'br, gzip' };
const CONNECTIONS = 10;
const SECONDS = 8;

interface ServerInfo {
  url: string;
  headers?: Record<string, string>;
  readHeaders?: Record<string, string>;
  paths: { read: string };
}

/** A process of bench/apiServer.ts; resolves once it prints where it listens. */
async function spawnServer(args: string[]): Promise<{ info: ServerInfo; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT_DIR, 'bench', 'apiServer.ts'), ...args],
    { cwd: ROOT_DIR, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
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

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One answer as it came over the wire: node:http asks for no encoding unless told and decodes none. */
function answerBytes(
  url: string,
  headers: Record<string, string>,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'none') }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

interface Load {
  rps: number;
  p99: number;
  /** Bytes of answers per second, as received (compressed where they were). */
  throughput: number;
  problems: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Load> {
  const result = await autocannon({
    url,
    headers,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    // The load generator runs in a worker thread of its own, never in the measured process.
    workers: 1,
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    throughput: result.throughput.average,
    problems: result.errors + result.timeouts + result.non2xx,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;

/** Prints the compression figures of the read path; starts its own plain Express baselines. */
export async function compressionSection(
  portal: ReadPath,
  options: { work: string; payload: string },
): Promise<void> {
  const payloadFile = path.join(options.work, 'compression-payload.json');
  writeFileSync(payloadFile, options.payload);
  const plain = await spawnServer(['plain', payloadFile]);
  const plainCompressed = await spawnServer(['plain', payloadFile, 'compressed']);
  try {
    const plainUrl = `${plain.info.url}${plain.info.paths.read}`;
    const plainCompressedUrl = `${plainCompressed.info.url}${plainCompressed.info.paths.read}`;
    const sizes = {
      none: await answerBytes(portal.readUrl, portal.readHeaders),
      gzip: await answerBytes(portal.readUrl, { ...portal.readHeaders, 'accept-encoding': 'gzip' }),
      br: await answerBytes(portal.readUrl, { ...portal.readHeaders, ...ACCEPT_COMPRESSED }),
    };
    if (sizes.gzip.encoding !== 'gzip' || sizes.br.encoding !== 'br')
      throw new Error(`the read path was not compressed: ${JSON.stringify(sizes)}`);
    await load(portal.readUrl, { ...portal.readHeaders, ...ACCEPT_COMPRESSED }); // warm-up

    const plainAsIs = await load(plainUrl, {});
    const portalAsIs = await load(portal.readUrl, portal.readHeaders);
    const plainBrotli = await load(plainCompressedUrl, ACCEPT_COMPRESSED);
    const portalBrotli = await load(portal.readUrl, { ...portal.readHeaders, ...ACCEPT_COMPRESSED });
    const row = (label: string, r: Load, base?: Load) =>
      `   ${label.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s   p99 ${String(r.p99).padStart(4)} ms   ` +
      `${kb(r.throughput / Math.max(r.rps, 1)).padStart(8)} an answer` +
      (base ? `   ${ratio(r.rps, base.rps)} throughput` : '   1.00×') +
      (r.problems ? `   errors, time-outs, non-2xx: ${r.problems}` : '');
    console.log(
      `   compression of GET /api/subscriptions (brotli quality ${DYNAMIC_BROTLI_QUALITY} or gzip, answers above ${kb(DYNAMIC_COMPRESSION_THRESHOLD)}), ${CONNECTIONS} connections, ${SECONDS} s`,
    );
    console.log(
      `   one answer: ${kb(sizes.none.bytes)} as it is, ${kb(sizes.gzip.bytes)} gzip (${ratio(sizes.gzip.bytes, sizes.none.bytes)}), ${kb(sizes.br.bytes)} brotli (${ratio(sizes.br.bytes, sizes.none.bytes)})`,
    );
    console.log(row('plain Express JSON', plainAsIs));
    console.log(row('portal', portalAsIs, plainAsIs));
    console.log(row('plain Express JSON, brotli', plainBrotli));
    console.log(row('portal, brotli', portalBrotli, plainBrotli));
    console.log(
      `   the read path's ratio to plain Express: ${ratio(portalAsIs.rps, plainAsIs.rps)} as it is, ${ratio(portalBrotli.rps, plainBrotli.rps)} compressed; the portal compressed: ${ratio(portalBrotli.rps, portalAsIs.rps)} the requests/s, ${ratio(sizes.br.bytes, sizes.none.bytes)} the bytes`,
    );
  } finally {
    await stopServer(plainCompressed.child);
    await stopServer(plain.child);
  }
}

// On its own: a portal server of its own, signed in, then the section.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-bench-compression-'));
  const portal = await spawnServer(['portal', path.join(work, 'api')]);
  try {
    const readUrl = `${portal.info.url}${portal.info.paths.read}`;
    const readHeaders = portal.info.readHeaders!;
    const payload = await (await fetch(readUrl, { headers: readHeaders })).text();
    await compressionSection({ readUrl, readHeaders }, { work, payload });
  } finally {
    await stopServer(portal.child);
    rmSync(work, { recursive: true, force: true });
  }
}
