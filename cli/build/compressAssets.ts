import { writeFile as writeFileCallback } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * The built files a browser downloads as text (docs/decisions.md "Compression: brotli quality 10 at
 * build time, 4 per request"): compressed ahead of time, next to the file, so the server only picks
 * a variant (server/spa/tenantSite.ts). Images and fonts are compressed already.
 */
const TEXT_FILE = /\.(?:js|mjs|css|json|html|svg|txt|xml|webmanifest)$/;

/** Below about one network packet a compressed answer arrives no sooner, and costs a header. */
export const MIN_COMPRESSED_BYTES = 1024;

/** A variant that saves less than a tenth is not worth a second file and a lookup. */
const MAX_COMPRESSED_SHARE = 0.9;

/** The variants, by the file name suffix the server looks for (express-static-gzip). */
export const COMPRESSED_SUFFIXES = ['.br', '.gz'] as const;

export interface CompressedSizes {
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
  /** The variants written next to the file, as suffixes of its name (`.br`, `.gz`). */
  variants: string[];
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
// The callback form: fs/promises' writeFile goes through a FileHandle, more work on this thread.
const writeFile = promisify(writeFileCallback);

/**
 * Compresses one built file with brotli and gzip at high levels (a build compresses once, every
 * download profits) and writes each variant that pays as `<file>.br` / `<file>.gz`. Both run on
 * libuv's threads. Returns the sizes either way: the build table shows them for every file.
 */
export async function compressBuiltFile(file: string, content?: Buffer): Promise<CompressedSizes> {
  const raw = content ?? (await readFile(file));
  const text = TEXT_FILE.test(file);
  const [gzipped, brotli] = await Promise.all([
    gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
    text
      ? brotliAsync(raw, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            // Measured on the engine's build: quality 11 took 3× the time of 10 for 1.7 % fewer bytes.
            [constants.BROTLI_PARAM_QUALITY]: 10,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        })
      : undefined,
  ]);
  const variants: string[] = [];
  if (text && raw.length >= MIN_COMPRESSED_BYTES) {
    const pays = (compressed: Buffer) => compressed.length <= raw.length * MAX_COMPRESSED_SHARE;
    const writes: Array<Promise<void>> = [];
    for (const [suffix, compressed] of [
      ['.br', brotli!],
      ['.gz', gzipped],
    ] as const) {
      if (!pays(compressed)) continue;
      variants.push(suffix);
      // The name carries the content's hash (Vite's chunks, the texts' files): an existing variant
      // of this name, from an earlier tenant of the same build, has this content.
      writes.push(writeFile(`${file}${suffix}`, compressed, { flag: 'wx' }).catch(ignoreExisting));
    }
    await Promise.all(writes);
  }
  return {
    bytes: raw.length,
    gzipBytes: gzipped.length,
    // Files that are not text are sent as they are.
    brotliBytes: brotli?.length ?? raw.length,
    variants,
  };
}

function ignoreExisting(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EEXIST') throw error;
}
