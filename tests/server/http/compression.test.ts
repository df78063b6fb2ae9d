/**
 * `portal build` writes brotli and gzip variants next to every
 * text asset worth it, and the server answers each request with the variant the client accepts,
 * `Vary: Accept-Encoding` and the original file's type, or the file itself to a client that accepts
 * none. The page, made per base path, is compressed as it is sent. (The /api JSON: apiCompression.int.test.ts.)
 */
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTenant, type EngineOutput } from '../../../cli/build/buildTenants';
import { compressBuiltFile, MIN_COMPRESSED_BYTES } from '../../../cli/build/compressAssets';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';
import { createApp } from '../../../server/app';
import { createMailer } from '../../../server/mail/mailer';
import { DYNAMIC_COMPRESSION_THRESHOLD, dynamicCompression } from '../../../server/http/compression';
import { listen } from '../../support/apiClient';
import { rawGet } from '../../support/rawRequest';

const work = mkdtempSync(path.join(os.tmpdir(), 'portal-compression-'));
const distDir = path.join(work, 'dist');
let baseUrl: string;
let close: () => Promise<void>;

/** An engine build of three chunks: an entry and a style sheet worth compressing, a tiny screen that is not. */
function fakeEngine(): EngineOutput {
  const dir = path.join(distDir, '.engine');
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'assets/index.js'),
    Array.from({ length: 400 }, (_, i) => `export const screen${i} = () => render("screen ${i}");`).join(
      '\n',
    ),
  );
  writeFileSync(
    path.join(dir, 'assets/index.css'),
    '.portal-card { margin: 0 auto; padding: 1rem; }\n'.repeat(80),
  );
  writeFileSync(path.join(dir, 'assets/OrdersScreen.js'), 'export default () => null;');
  return {
    dir,
    template:
      '<html lang="en-GB"><head><base href="%PORTAL_BASE%" /><!--portal:head--></head><body><script type="module" src="./assets/index.js"></script></body></html>',
    sizes: new Map(),
    textFiles: new Map(),
    baseTexts: new Map(),
    manifest: {
      'index.html': {
        file: 'assets/index.js',
        src: 'index.html',
        isEntry: true,
        css: ['assets/index.css'],
        dynamicImports: ['features/orders/OrdersScreen.tsx'],
      },
      'features/orders/OrdersScreen.tsx': { file: 'assets/OrdersScreen.js', isDynamicEntry: true },
    },
  };
}

const assets = () => path.join(distDir, 'stadtkurier', 'assets');
const original = (file: string) => readFileSync(path.join(assets(), file));
let textFile: string;

beforeAll(async () => {
  const [tenant] = await loadValidTenants(['stadtkurier']);
  await writeTenant(tenant, fakeEngine(), distDir);
  textFile = (
    JSON.parse(readFileSync(path.join(distDir, 'stadtkurier', 'portal-build.json'), 'utf8')) as {
      texts: Record<string, string>;
    }
  ).texts['de-DE'].slice('assets/'.length);
  const { app } = createApp({
    // Assets and the page need no database; nothing here reaches one.
    db: {} as never,
    tenants: [tenant],
    distDir,
    mailer: createMailer({ outboxDir: path.join(work, 'outbox') }),
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => {
  await close?.();
  rmSync(work, { recursive: true, force: true });
});

describe('portal build compresses the text assets', () => {
  it('writes brotli and gzip next to every text file worth it, in the shared folder the tenant links', () => {
    for (const file of ['index.js', 'index.css', textFile]) {
      expect(brotliDecompressSync(original(`${file}.br`))).toEqual(original(file));
      expect(gunzipSync(original(`${file}.gz`))).toEqual(original(file));
      expect(original(`${file}.br`).length).toBeLessThan(original(`${file}.gz`).length);
    }
    expect(realpathSync(assets())).toContain(`${path.sep}.assets${path.sep}`);
  });

  it('writes no variant of a file too small to gain from it', () => {
    expect(original('OrdersScreen.js').length).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect(existsSync(path.join(assets(), 'OrdersScreen.js.br'))).toBe(false);
    expect(existsSync(path.join(assets(), 'OrdersScreen.js.gz'))).toBe(false);
  });

  it('writes no variant where compressing does not pay, nor of a file that is not text', async () => {
    const folder = mkdtempSync(path.join(work, 'incompressible-'));
    // Random bytes: neither brotli nor gzip makes them smaller.
    const noise = randomBytes(4096);
    writeFileSync(path.join(folder, 'noise.json'), noise);
    writeFileSync(path.join(folder, 'logo.png'), Buffer.alloc(4096));
    expect((await compressBuiltFile(path.join(folder, 'noise.json'))).variants).toEqual([]);
    expect((await compressBuiltFile(path.join(folder, 'logo.png'))).variants).toEqual([]);
    expect(existsSync(path.join(folder, 'logo.png.gz'))).toBe(false);
  });
});

describe('portal serve negotiates the compressed assets', () => {
  const asset = (file: string, acceptEncoding?: string) =>
    rawGet(
      `${baseUrl}/t/stadtkurier/assets/${file}`,
      acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    );

  it('answers a browser with the brotli file, Vary and the type of the script', async () => {
    const answer = await asset('index.js', 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript; charset=utf-8$/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.body).toEqual(original('index.js.br'));
    expect(brotliDecompressSync(answer.body)).toEqual(original('index.js'));
  });

  it('answers gzip to a client that accepts only gzip, with the type of each file', async () => {
    for (const [file, type] of [
      ['index.css', /^text\/css/],
      [textFile, /^application\/json/],
    ] as const) {
      const answer = await asset(file, 'gzip');
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers['content-type']).toMatch(type);
      expect(gunzipSync(answer.body)).toEqual(original(file));
    }
  });

  it('answers the file itself to a client that accepts no encoding, or refuses brotli and gzip', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const answer = await asset('index.js', acceptEncoding);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
      expect(answer.body).toEqual(original('index.js'));
    }
  });

  it("answers a missing asset 404 without naming the server's folders", async () => {
    const answer = await asset('no-such-file.js', 'br, gzip');
    expect(answer.status).toBe(404);
    expect(answer.headers['content-encoding']).toBeUndefined();
    const body = answer.body.toString('utf8');
    expect(JSON.parse(body).error.code).toBe('not_found');
    expect(body).not.toMatch(/ENOENT|\/tmp|dist|assets\//);
  });

  it('answers a tiny file as it is, whatever the client accepts', async () => {
    const answer = await asset('OrdersScreen.js', 'br, gzip');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body).toEqual(original('OrdersScreen.js'));
  });

  it('compresses the page as it sends it, with its base path filled in', async () => {
    const plain = await rawGet(`${baseUrl}/t/stadtkurier/orders`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(DYNAMIC_COMPRESSION_THRESHOLD);
    const page = await rawGet(`${baseUrl}/t/stadtkurier/orders`, { 'accept-encoding': 'gzip, br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers.vary).toBe('Accept-Encoding');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
    expect(brotliDecompressSync(page.body).toString('utf8')).toBe(plain.body.toString('utf8'));
    expect(plain.body.toString('utf8')).toContain('<base href="/t/stadtkurier/" />');
    const gzipped = await rawGet(`${baseUrl}/t/stadtkurier/orders`, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzipped.body).toString('utf8')).toBe(plain.body.toString('utf8'));
  });

  it('answers a small /api answer uncompressed', async () => {
    const answer = await rawGet(`${baseUrl}/t/stadtkurier/api/no-such-call`, {
      'accept-encoding': 'br, gzip',
    });
    expect(answer.status).toBe(404);
    expect(answer.body.length).toBeLessThan(DYNAMIC_COMPRESSION_THRESHOLD);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString('utf8')).error.code).toBeDefined();
  });
});

describe('robots.txt', () => {
  it('is text for crawlers, not the portal page, and keeps them out of the API', async () => {
    const answer = await rawGet(`${baseUrl}/robots.txt`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.body.toString('utf8')).toMatch(/^User-agent: \*\nDisallow: \/api\/\n/);
  });
});

describe('favicon.ico', () => {
  it('is no icon and no error, for the pages that name none', async () => {
    const answer = await rawGet(`${baseUrl}/favicon.ico`);
    expect(answer.status).toBe(204);
    expect(answer.body.length).toBe(0);
  });
});

describe('what is compressed per request', () => {
  it('leaves PDFs and event streams as they are, and compresses JSON of the same size', async () => {
    const body = Buffer.from('{"subscriptions":[]}'.repeat(400));
    const app = express();
    app.use(dynamicCompression());
    app.get('/invoice.pdf', (_req, res) => void res.type('application/pdf').send(body));
    app.get('/events', (_req, res) => void res.type('text/event-stream').send(body));
    app.get('/list', (_req, res) => void res.type('application/json').send(body));
    const server = await listen(app);
    try {
      const get = (file: string) => rawGet(`${server.baseUrl}${file}`, { 'accept-encoding': 'br, gzip' });
      expect((await get('/invoice.pdf')).headers['content-encoding']).toBeUndefined();
      expect((await get('/events')).headers['content-encoding']).toBeUndefined();
      expect((await get('/list')).headers['content-encoding']).toBe('br');
    } finally {
      await server.close();
    }
  });
});
