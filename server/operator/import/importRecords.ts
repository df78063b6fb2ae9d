import { createHash } from 'node:crypto';
import { type WriteStream, createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, Queryable } from '../../db/database';
import {
  type MergeCounts,
  type StagedRecord,
  UnknownReferencesError,
  analyzeEntityTables,
  copyLine,
  stageCopyLines,
  forgetImportProgress,
  importedLines,
  mergeStaged,
  recordImportedLines,
} from '../../store/orderSystemStore';
import {
  ORDER_SYSTEM_ENTITIES,
  type OrderSystemEntity,
  fieldOf,
  orderSystemEntity,
} from '../entities/orderSystemEntities';
import { readRecord } from '../entities/orderSystemRecords';

/**
 * The bulk import of the order system's records (issue 25 "Bulk import"): NDJSON, one file per
 * entity (`<entity>.ndjson`, a record per line, the API's JSON Schemas), for the first load and
 * the nightly full sync. `portal import`, POST /operator/v1/imports/<entity> and the demo seed all
 * run it.
 *
 * Two passes over the files, both streaming (memory stays flat however large a file is):
 *  1. every line is parsed and validated; each bad one is reported as `file:line /pointer message`
 *     like `portal validate`, and when there is one, nothing is written at all;
 *  2. the files are loaded in the entities' order (references point backwards), in batches: each
 *     batch is COPYed into a staging table and merged (server/store/orderSystemStore.ts) in its own
 *     transaction, which also records how far the file got. An import interrupted after some
 *     batches goes on after them when run again with the same file; a batch whose records name
 *     rows that do not exist is rolled back whole and stops the import.
 */

/** One file to import: what entity its lines are, the name to report, and how to read its lines. */
export interface ImportSource {
  entity: OrderSystemEntity;
  name: string;
  /** Every line of the file in order, blank ones too (they count in the line numbers). */
  lines(options: { maxLineBytes: number }): AsyncIterable<SourceLine>;
}

export interface ImportProblem {
  file: string;
  line: number;
  pointer: string;
  message: string;
}

export interface EntitySummary extends MergeCounts {
  entity: string;
  file: string;
  lines: number;
  /** Lines skipped because an interrupted import had merged them already. */
  resumedAfter: number;
}

export interface ImportProgress {
  entity: string;
  file: string;
  phase: 'validating' | 'loading';
  linesDone: number;
  /** Lines of the file, known once it has been validated. */
  linesTotal?: number;
  startedAt: number;
}

export interface ImportResult {
  ok: boolean;
  problems: ImportProblem[];
  /** All problems, even past the ones listed. */
  problemCount: number;
  entities: EntitySummary[];
}

export interface ImportOptions {
  /** Lines per batch (one transaction each). */
  batchLines?: number;
  /** Problems listed at most (all are counted). */
  maxProblems?: number;
  /** Longest line taken, in bytes (default 1 MB); a longer one is a problem of its line. */
  maxLineBytes?: number;
  onProgress?: (progress: ImportProgress) => void;
  /**
   * Run everything inside this transaction instead of one per batch (the demo seed: its tenant is
   * claimed in the same transaction). Nothing is resumable then; nothing needs to be.
   */
  transaction?: Queryable;
}

export const DEFAULT_BATCH_LINES = 20_000;
const PROGRESS_EVERY_LINES = 10_000;
/** Rows written to an entity's table after which its statistics are refreshed (analyzeEntityTables). */
const ANALYZE_AFTER_WRITES = 5_000;

/** Longest line read by default (README "Going live with your order system", 3. Import). */
export const DEFAULT_MAX_LINE_BYTES = 1024 ** 2;

/** A line of a source: its text, or why it cannot be read (then it is reported as a problem). */
export type SourceLine = { text: string; problem?: undefined } | { text?: undefined; problem: string };

/** 1048576 → "1 MB", 4096 → "4 KB", 1000 → "1,000 bytes": a limit as a publisher reads it. */
export function formatByteLimit(bytes: number): string {
  if (bytes % 1024 ** 2 === 0) return `${(bytes / 1024 ** 2).toLocaleString('en-GB')} MB`;
  if (bytes % 1024 === 0) return `${(bytes / 1024).toLocaleString('en-GB')} KB`;
  return `${bytes.toLocaleString('en-GB')} bytes`;
}

/**
 * The lines of a file (without their line ends), read as bytes chunk by chunk as they are asked
 * for, each decoded on its own:
 *  - fatally: a line that is not valid UTF-8 is a problem of that line, never stored with U+FFFD
 *    in place of its bytes (a BOM is kept, and then is not JSON, as before);
 *  - up to maxLineBytes: the bytes of a longer line are counted, not kept, so one giant line
 *    does not take the memory of its size.
 * A newline byte never occurs inside a UTF-8 sequence, so splitting the bytes before decoding is
 * safe. A stream's own iterator reads only when the next chunk is wanted (readline's read on while
 * its consumer waited, and held most of a large file in memory).
 */
export async function* readLines(
  file: string,
  { maxLineBytes = DEFAULT_MAX_LINE_BYTES }: { maxLineBytes?: number } = {},
): AsyncGenerator<SourceLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let parts: Buffer[] = [];
  let length = 0;
  let lastByte = -1;
  const take = (piece: Buffer) => {
    length += piece.length;
    if (piece.length > 0) lastByte = piece[piece.length - 1];
    // One byte more than the limit: a carriage return before the newline is not the line's.
    if (length > maxLineBytes + 1) parts = [];
    else parts.push(piece);
  };
  const finish = (): SourceLine => {
    const bytes = lastByte === 0x0d ? length - 1 : length;
    const pieces = parts;
    parts = [];
    length = 0;
    lastByte = -1;
    if (bytes > maxLineBytes)
      return {
        problem: `is longer than ${formatByteLimit(maxLineBytes)} (${bytes.toLocaleString('en-GB')} bytes)`,
      };
    const line = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    try {
      return { text: decoder.decode(line.subarray(0, bytes)) };
    } catch {
      return { problem: 'is not valid UTF-8' };
    }
  };
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  }
  if (length > 0) yield finish();
}

/** The lines of a spool (written by copyLine, so valid UTF-8 and one record per line). */
async function* readSpool(file: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    const lines = (rest + (chunk as string)).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest) yield rest;
}

/** The lines of a file, read as a stream. */
export function fileSource(entity: OrderSystemEntity, file: string, name = file): ImportSource {
  return { entity, name, lines: (options) => readLines(file, options) };
}

/**
 * The files of a folder (or one file) to import: `<entity>.ndjson` for every entity in
 * orderSystemEntities.ts, in load order. Files with other names are refused by name, so a typo
 * (`subscription.ndjson`) is not silently left out.
 */
export async function sourcesAt(
  target: string,
): Promise<{ sources: ImportSource[]; problems: ImportProblem[] }> {
  const info = await stat(target);
  const files = info.isDirectory()
    ? (await readdir(target)).filter((f) => !f.startsWith('.')).map((f) => path.join(target, f))
    : [target];
  const sources: ImportSource[] = [];
  const problems: ImportProblem[] = [];
  for (const file of files) {
    const base = path.basename(file);
    const entity = base.endsWith('.ndjson') ? orderSystemEntity(base.slice(0, -'.ndjson'.length)) : undefined;
    if (!entity) {
      problems.push({
        file: base,
        line: 0,
        pointer: '',
        message: `is not an entity file: name files <entity>.ndjson, one of ${ORDER_SYSTEM_ENTITIES.map((e) => e.name).join(', ')}`,
      });
      continue;
    }
    sources.push(fileSource(entity, file, base));
  }
  const order = (s: ImportSource) => ORDER_SYSTEM_ENTITIES.indexOf(s.entity);
  return { sources: sources.sort((a, b) => order(a) - order(b)), problems };
}

/** Each non-blank line of a source, numbered from 1: its text, or why it cannot be read. */
async function* numberedLines(source: ImportSource, maxLineBytes: number) {
  let number = 0;
  for await (const line of source.lines({ maxLineBytes })) {
    number += 1;
    if (line.text?.trim() === '') continue;
    yield { number, line };
  }
}

type ParsedLine = { ok: true; staged: StagedRecord } | { ok: false; problems: ImportProblem[] };

function parseLine(source: ImportSource, number: number, text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problems: [
        { file: source.name, line: number, pointer: '', message: `is not JSON: ${(error as Error).message}` },
      ],
    };
  }
  const read = readRecord(source.entity, value, number);
  if (read.ok) return read;
  return {
    ok: false,
    problems: read.problems.map((p) => ({ file: source.name, line: number, ...p })),
  };
}

/**
 * The line of each key seen in a file. One V8 Map holds at most 2^24 entries and a payments file
 * may have more lines, so the keys are spread over 16 Maps. About 70 MB per million keys (measured
 * with keys of 20 characters): kept only while the files of its entity are read.
 */
class KeyLines {
  private readonly parts = Array.from({ length: 16 }, () => new Map<string, number>());

  private part(key: string): Map<string, number> {
    let hash = 0;
    for (let i = 0; i < key.length; i += 1) hash = (hash * 31 + key.charCodeAt(i)) | 0;
    return this.parts[hash & 15];
  }

  get(key: string): number | undefined {
    return this.part(key).get(key);
  }

  set(key: string, line: number): void {
    this.part(key).set(key, line);
  }
}

/**
 * `/id "F31" appears again: line 3 has the same key` (README "Going live with your order system",
 * 3. Import): the same record twice in one import is refused, as either line may be the one meant.
 * A key of several fields names the others after its last one.
 */
function duplicateProblem(
  source: ImportSource,
  staged: StagedRecord,
  first: { file: string; line: number },
): ImportProblem {
  const [last, ...before] = [...source.entity.key].reverse().map((column) => fieldOf(column));
  const value = (field: string) => JSON.stringify(String(staged.record[field]));
  const others = before.reverse().map((field) => `${field} ${value(field)}`);
  return {
    file: source.name,
    line: staged.line,
    pointer: `/${last}`,
    message: `${value(last)}${others.length ? ` of ${others.join(', ')}` : ''} appears again: ${
      first.file === source.name ? '' : `${first.file}:`
    }line ${first.line} has the same key`,
  };
}

/** Writes text to a stream, waiting when its buffer is full (memory stays flat). */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Pass 1: validates every line and spools the valid ones, staged (key, version, hash, the record
 * with its defaults) in COPY's text format, so pass 2 sends them on without parsing or validating
 * again. Answers the problems and each file's hash, line count and spool.
 */
async function validateSources(sources: readonly ImportSource[], spoolDir: string, options: ImportOptions) {
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  const files = new Map<ImportSource, { sha256: string; lines: number; spool: string }>();
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // The keys of each entity's files read so far, dropped after its last file.
  const keysOf = new Map<string, { file: string; keys: KeyLines }[]>();
  const lastSourceOf = new Map(sources.map((source, index) => [source.entity.name, index]));
  for (const [index, source] of sources.entries()) {
    const seen = keysOf.get(source.entity.name) ?? [];
    keysOf.set(source.entity.name, seen);
    const keys = new KeyLines();
    seen.push({ file: source.name, keys });
    const firstOf = (key: string) => {
      for (const earlier of seen) {
        const line = earlier.keys.get(key);
        if (line !== undefined) return { file: earlier.file, line };
      }
      return undefined;
    };
    const hash = createHash('sha256');
    const startedAt = Date.now();
    const spool = path.join(spoolDir, `${index}.copy`);
    const out = createWriteStream(spool);
    let lines = 0;
    try {
      for await (const { number, line } of numberedLines(source, maxLineBytes)) {
        lines = number;
        hash.update(line.text ?? '').update('\n');
        let parsed: ParsedLine =
          line.problem === undefined
            ? parseLine(source, number, line.text)
            : {
                ok: false,
                problems: [{ file: source.name, line: number, pointer: '', message: line.problem }],
              };
        if (parsed.ok) {
          const first = firstOf(parsed.staged.key);
          if (first) parsed = { ok: false, problems: [duplicateProblem(source, parsed.staged, first)] };
          else keys.set(parsed.staged.key, number);
        }
        if (!parsed.ok) {
          problemCount += parsed.problems.length;
          for (const problem of parsed.problems)
            if (problems.length < (options.maxProblems ?? 1000)) problems.push(problem);
        } else if (problemCount === 0) await write(out, copyLine(parsed.staged));
        if (number % PROGRESS_EVERY_LINES === 0)
          options.onProgress?.({
            entity: source.entity.name,
            file: source.name,
            phase: 'validating',
            linesDone: number,
            startedAt,
          });
      }
    } finally {
      await new Promise((resolve) => out.end(resolve));
    }
    files.set(source, { sha256: hash.digest('hex'), lines, spool });
    if (lastSourceOf.get(source.entity.name) === index) keysOf.delete(source.entity.name);
  }
  return { problems, problemCount, files };
}

function addCounts(summary: EntitySummary, counts: MergeCounts): void {
  summary.created += counts.created;
  summary.updated += counts.updated;
  summary.unchanged += counts.unchanged;
  summary.refused += counts.refused;
}

/** Imports the sources into the tenant: validates all, then loads them batch by batch. */
export async function importSources(
  db: Database,
  tenantId: string,
  sources: readonly ImportSource[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const spoolDir = await mkdtemp(path.join(tmpdir(), 'portal-import-spool-'));
  try {
    return await loadSources(db, tenantId, sources, spoolDir, options);
  } finally {
    await rm(spoolDir, { recursive: true, force: true });
  }
}

async function loadSources(
  db: Database,
  tenantId: string,
  sources: readonly ImportSource[],
  spoolDir: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const validated = await validateSources(sources, spoolDir, options);
  if (validated.problemCount > 0)
    return { ok: false, problems: validated.problems, problemCount: validated.problemCount, entities: [] };

  const batchLines = options.batchLines ?? DEFAULT_BATCH_LINES;
  const entities: EntitySummary[] = [];
  for (const source of sources) {
    const { sha256, lines, spool } = validated.files.get(source)!;
    const entity = source.entity;
    const resumedAfter = options.transaction ? 0 : await importedLines(db, tenantId, entity.name, sha256);
    const summary: EntitySummary = {
      entity: entity.name,
      file: source.name,
      lines,
      resumedAfter,
      created: 0,
      updated: 0,
      unchanged: 0,
      refused: 0,
    };
    entities.push(summary);
    const startedAt = Date.now();
    let batch: string[] = [];
    const writeBatch = async (lastLine: number) => {
      const merge = async (tx: Queryable) => {
        await stageCopyLines(tx, batch);
        const counts = await mergeStaged(tx, tenantId, entity);
        if (!options.transaction) await recordImportedLines(tx, tenantId, entity.name, sha256, lastLine);
        return counts;
      };
      try {
        addCounts(
          summary,
          options.transaction ? await merge(options.transaction) : await db.transaction(merge),
        );
      } catch (error) {
        if (error instanceof UnknownReferencesError)
          return error.problems.map((p) => ({ file: source.name, ...p }));
        throw error;
      }
      batch = [];
      options.onProgress?.({
        entity: entity.name,
        file: source.name,
        phase: 'loading',
        linesDone: lastLine,
        linesTotal: lines,
        startedAt,
      });
      return [];
    };
    let lastLine = 0;
    for await (const copyText of readSpool(spool)) {
      // A spooled line starts with its line number in the file (copyLine).
      const number = Number(copyText.slice(0, copyText.indexOf('\t')));
      lastLine = number;
      if (number <= resumedAfter) continue;
      batch.push(`${copyText}\n`);
      if (batch.length >= batchLines) {
        const problems = await writeBatch(number);
        if (problems.length) return { ok: false, problems, problemCount: problems.length, entities };
      }
    }
    if (batch.length > 0) {
      const problems = await writeBatch(lastLine);
      if (problems.length) return { ok: false, problems, problemCount: problems.length, entities };
    }
    if (!options.transaction) await forgetImportProgress(db, tenantId, entity.name, sha256);
    if (summary.created + summary.updated > ANALYZE_AFTER_WRITES)
      await analyzeEntityTables(options.transaction ?? db, entity);
  }
  return { ok: true, problems: [], problemCount: 0, entities };
}

/** `file:line /pointer message`, the way `portal validate` reports a tenant file's problems. */
export function formatProblem(problem: ImportProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}${problem.pointer ? ` ${problem.pointer}` : ''} ${problem.message}`;
}
