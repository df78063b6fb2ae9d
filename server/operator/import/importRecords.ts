import { type WriteStream, createReadStream, createWriteStream, rmSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, Queryable } from '../../db/database';
import { duplicateJsonKey } from '../../http/duplicateJsonKey';
import {
  type MergeCounts,
  type RefusedRecord,
  type StagedRecord,
  UnknownReferencesError,
  analyzeEntityTables,
  copyLine,
  stageCopyChunks,
  stageCopyLines,
  mergeStaged,
} from '../../store/orderSystemStore';
import {
  ORDER_SYSTEM_ENTITIES,
  type OrderSystemEntity,
  fieldOf,
  KEY_SEPARATOR,
  orderSystemEntity,
  recordKey,
} from '../entities/orderSystemEntities';
import { readRecord } from '../entities/orderSystemRecords';
import {
  DEFAULT_MAX_DELETE_PERCENT,
  deleteUnnamedRecords,
  nameStagedKeys,
  prepareFullSync,
} from './importDeletions';
import { importRows, imports, importsRunning, tenantLabel } from '../../metrics/registry';

/**
 * The bulk import of the order system's records (docs/going-live.md "Going live with your order system",
 * 3. Import): NDJSON, one file per entity (`<entity>.ndjson`, a record per line, the API's JSON
 * Schemas), for the first load and the nightly full sync. `portal import`,
 * POST /operator/v1/imports/<entity> and the demo seed all run it.
 *
 * A set of files goes in whole or not at all. Two passes over the files, both streaming, the second
 * loading each batch the first has checked while the first checks on (the checking is the
 * process's work, the loading the database's):
 *  1. every line is read (UTF-8, at most maxLineBytes), parsed, validated and checked for a key
 *     seen before in the import; each bad one is reported as `file:line /pointer message` like
 *     `portal validate`, and when there is one, nothing is written at all: what pass 2 loaded is
 *     rolled back. The valid lines are spooled, staged, to a temporary folder, batch by batch;
 *  2. the files are loaded in the entities' order (references point backwards) in ONE transaction,
 *     batch by batch: each batch is COPYed into a staging table and merged
 *     (server/store/orderSystemStore.ts). A record naming a row that does not exist is listed and
 *     the loading goes on, so that every such record of every file is listed; then everything is
 *     rolled back. The transaction commits only after pass 1 has checked the last line. An import
 *     that is interrupted leaves nothing behind: it is simply run again.
 * A full sync (`full`) then deletes, in the same transaction, the records of each file's entity that
 * no line of the import named (importDeletions.ts).
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
  /** 0 for a problem of the file, not of a line (a record a full sync cannot delete). */
  line: number;
  pointer: string;
  message: string;
  /** The record's key, for a record no line names (a full sync's deletion it cannot make). */
  key?: string;
}

export interface EntitySummary extends MergeCounts {
  entity: string;
  file: string;
  lines: number;
  /** Records of the entity the file did not name, deleted by a full sync (`full`); 0 without it. */
  deleted: number;
  /**
   * The first REFUSED_LISTED records `refused` counts (older than the stored version), by line and
   * key, so the operator can tell the order system which ones it sent stale (`refused` has them all).
   */
  refusedRecords: RefusedRecord[];
}

/** How many refused records a file's summary lists; its `refused` counts every one. */
export const REFUSED_LISTED = 20;

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
  /** Written (all of it); otherwise nothing was. */
  ok: boolean;
  problems: ImportProblem[];
  /** All problems found, even past the ones listed. */
  problemCount: number;
  /**
   * The loading stopped when maxProblems were listed: records naming rows that do not exist are
   * found batch by batch, and the batches after that many would only add to a list nobody reads.
   */
  stoppedEarly: boolean;
  /** What each file wrote; empty when nothing was. */
  entities: EntitySummary[];
}

export interface ImportOptions {
  /** Lines per COPY and merge (all of them in one transaction). */
  batchLines?: number;
  /** Problems listed at most (those of pass 1 are all counted). */
  maxProblems?: number;
  /** Longest line taken, in bytes (default 1 MB); a longer one is a problem of its line. */
  maxLineBytes?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Stops the import (between lines and batches): nothing is written, the spool is removed. */
  signal?: AbortSignal;
  /**
   * Run inside this transaction (the demo seed: its tenant is claimed in the same transaction),
   * under a savepoint that a refused import rolls back.
   */
  transaction?: Queryable;
  /**
   * How the import was started, recorded with its result in import_runs for the metrics (not the
   * demo seed's, which passes none).
   */
  recordAs?: ImportVia;
  /**
   * A full sync: each file is the complete set of its entity, and the entity's records no line of
   * the import names are deleted, after every file is merged (importDeletions.ts). Entities without
   * a file are left alone.
   */
  full?: boolean;
  /**
   * Under `full`, the largest share (percent, 0 to 100) of an entity's stored records its file may
   * delete; more refuses the import. Default DEFAULT_MAX_DELETE_PERCENT.
   */
  maxDeletePercent?: number;
}

export type ImportVia = 'cli' | 'api';

/**
 * Records a finished import for the metrics (migration 034_import_runs.sql). Best effort: an import
 * that wrote is not undone because its record could not be written (the database went away
 * meanwhile); the failure is left to the caller's log.
 */
export async function recordImportRun(
  db: Queryable,
  tenantId: string,
  run: { result: 'written' | 'refused' | 'error'; via: ImportVia; problems: number },
): Promise<void> {
  await db.query('insert into import_runs (tenant_id, result, via, problems) values ($1, $2, $3, $4)', [
    tenantId,
    run.result,
    run.via,
    run.problems,
  ]);
}

export const DEFAULT_BATCH_LINES = 20_000;
export const DEFAULT_MAX_PROBLEMS = 1000;
const PROGRESS_EVERY_LINES = 10_000;
/** Rows written to an entity's table after which its statistics are refreshed (analyzeEntityTables). */
const ANALYZE_AFTER_WRITES = 5_000;

/** Longest line read by default (docs/going-live.md "Going live with your order system", 3. Import). */
export const DEFAULT_MAX_LINE_BYTES = 1024 ** 2;

/**
 * The import's temporary folders (docs/going-live.md "Going live with your order system", 3. Import): the
 * spool of pass 1 (as large as the files) and an API upload. Their names carry the owning process,
 * `portal-import-spool-<pid>-XXXXXX`: a process killed with SIGKILL cannot remove its own, so every
 * import removes those of processes that are gone.
 */
const TEMP_FOLDER = /^portal-import-(?:spool|upload)-(\d+)-/;
/** This process's folders in use, for removeImportFoldersNow. */
const foldersInUse = new Set<string>();
/** When this process started: a folder with its pid from before then is an earlier process's. */
const processStartedAt = Date.now() - process.uptime() * 1000;

export async function makeImportFolder(kind: 'spool' | 'upload'): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), `portal-import-${kind}-${process.pid}-`));
  foldersInUse.add(folder);
  return folder;
}

export async function removeImportFolder(folder: string): Promise<void> {
  foldersInUse.delete(folder);
  await rm(folder, { recursive: true, force: true });
}

/** Removes this process's folders at once (the CLI on SIGINT and SIGTERM, before it exits). */
export function removeImportFoldersNow(): void {
  for (const folder of foldersInUse) rmSync(folder, { recursive: true, force: true });
  foldersInUse.clear();
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the import folders in `dir` of processes that are no longer running, and of an earlier
 * process that had this one's pid (a container restarted after a kill starts its portal with the
 * same pid again): those are older than this process. Answers the folders removed.
 */
export async function removeStaleImportFolders(dir = tmpdir()): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(TEMP_FOLDER.exec(name)?.[1] ?? 0);
    if (!pid) continue;
    const folder = path.join(dir, name);
    if (pid === process.pid) {
      if (foldersInUse.has(folder)) continue;
      // A second is left for file systems that keep times in whole seconds.
      const changed = (await stat(folder).catch(() => undefined))?.mtimeMs;
      if (changed === undefined || changed >= processStartedAt - 1000) continue;
    } else if (isRunning(pid)) continue;
    try {
      await rm(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Another user's, or gone meanwhile: not ours to worry about.
    }
  }
  return removed;
}

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
 *    in place of its bytes (a BOM is kept here; numberedLines takes one off the first line);
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
      return {
        problem:
          'is not valid UTF-8: the files are read as UTF-8 (export or save them so; UTF-16 and Latin-1 are not)',
      };
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

/** A batch of spooled lines: its file in the spool, or (a part of one) the lines themselves. */
type SpooledBatch = { file: string } | { lines: readonly string[] };

/** The lines of a spooled batch, each ending in a newline (copyLine's, so valid UTF-8). */
async function linesOf(batch: SpooledBatch): Promise<readonly string[]> {
  if ('lines' in batch) return batch.lines;
  const lines = (await readFile(batch.file, 'utf8')).split('\n');
  lines.pop();
  return lines.map((line) => `${line}\n`);
}

/** Writes text to a stream, waiting when its buffer is full (memory stays flat). */
async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
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
  // An empty folder is a wrong path or an export that did not run, never "nothing to change".
  if (files.length === 0)
    problems.push({
      file: path.basename(target) || target,
      line: 0,
      pointer: '',
      message: `holds no files to import: put the order system's export there as <entity>.ndjson files, one of ${ORDER_SYSTEM_ENTITIES.map((e) => e.name).join(', ')}`,
    });
  const order = (s: ImportSource) => ORDER_SYSTEM_ENTITIES.indexOf(s.entity);
  return { sources: sources.sort((a, b) => order(a) - order(b)), problems };
}

/** Each non-blank line of a source, numbered from 1: its text, or why it cannot be read. */
async function* numberedLines(source: ImportSource, maxLineBytes: number) {
  let number = 0;
  for await (const read of source.lines({ maxLineBytes })) {
    number += 1;
    // A byte order mark before the first line (what Windows tools write for "UTF-8") is no part of
    // the record: taken off, as the tenant files' reader does.
    const line = number === 1 && read.text?.startsWith('\uFEFF') ? { text: read.text.slice(1) } : read;
    if (line.text?.trim() === '') continue;
    yield { number, line };
  }
}

/**
 * A refused line keeps the key it names, where its key fields are there as the schemas have them
 * (namedKey), so a later line with the same key is told in the same run (not only once this line
 * is mended).
 */
type ParsedLine =
  | { ok: true; staged: StagedRecord }
  | { ok: false; problems: ImportProblem[]; key?: { key: string; record: Record<string, unknown> } };

/**
 * The key a record names, if its key fields are all there as text, with the separator in the last
 * one only (as the schemas have keys): else two different records could join to the same key.
 */
function namedKey(entity: ImportSource['entity'], value: unknown) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const last = entity.key.length - 1;
  const named = entity.key.every((column, index) => {
    const field = record[fieldOf(column)];
    return typeof field === 'string' && field !== '' && (index === last || !field.includes(KEY_SEPARATOR));
  });
  return named ? { key: recordKey(entity, record), record } : undefined;
}

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
  // Which of two equal keys JSON.parse keeps is not what the order system meant: refused, as the APIs do.
  const duplicate = duplicateJsonKey(text);
  if (duplicate !== undefined) {
    return {
      ok: false,
      problems: [
        {
          file: source.name,
          line: number,
          pointer: '',
          message: `names the key ${JSON.stringify(duplicate)} twice in one object`,
        },
      ],
    };
  }
  const read = readRecord(source.entity, value, number);
  if (read.ok) return read;
  const key = namedKey(source.entity, value);
  return {
    ok: false,
    problems: read.problems.map((p) => ({ file: source.name, line: number, ...p })),
    ...(key ? { key } : {}),
  };
}

/**
 * The line of each key seen in a file. One V8 Map holds at most 2^24 entries and a payments file
 * may have more lines, so the keys are spread over 16 Maps. About 70 MB of heap per million keys
 * of 20 characters, some 150 MB more resident memory at the peak of a file of a million lines
 * (measured): kept only while the files of its entity are read.
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
 * `/id "F31" appears again: line 3 has the same key` (docs/going-live.md "Going live with your order system",
 * 3. Import): the same record twice in one import is refused, as either line may be the one meant.
 * A key of several fields names the others after its last one.
 */
function duplicateProblem(
  source: ImportSource,
  staged: Pick<StagedRecord, 'line' | 'record'>,
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

/** What pass 1 hands to pass 2, in order: a spooled batch of a file, or the end of a file. */
type SpoolItem =
  | { kind: 'batch'; source: ImportSource; file: string; lastLine: number }
  | { kind: 'end'; source: ImportSource; lines: number };

/**
 * The spooled batches from pass 1 to pass 2, first in first out. Pass 1 never waits for pass 2:
 * what is checked and not yet loaded waits in the spool on disk, not in memory.
 */
class SpoolQueue {
  private readonly items: SpoolItem[] = [];
  private closed = false;
  private wake?: () => void;
  /** Pass 1 found a problem: nothing loaded stays, so pass 2 stops. */
  refused = false;
  /** Pass 2 has stopped: pass 1 only checks on, spooling nothing. */
  unwanted = false;
  /** The lines of each file pass 1 has read to its end, for pass 2's progress. */
  readonly linesOf = new Map<ImportSource, number>();

  push(item: SpoolItem): void {
    this.items.push(item);
    this.wake?.();
  }

  refuse(): void {
    this.refused = true;
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** The next item; undefined once pass 1 has ended and every item was taken. */
  async next(): Promise<SpoolItem | undefined> {
    while (this.items.length === 0 && !this.closed && !this.refused)
      await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    return this.items.shift();
  }
}

/**
 * Pass 1's longest stretch without giving way: pass 2's statements wait on the event loop for
 * their answers while lines are checked, so a long stretch is time the database sits idle.
 */
const YIELD_AFTER_MS = 4;

/**
 * Pass 1: validates every line, refuses a key seen before in the import, and spools the valid
 * lines, staged (key, version, hash, the record with its defaults) in COPY's text format, so pass 2
 * sends them on without parsing or validating again. The spool is written batch by batch, each
 * handed to pass 2 as it is complete; after the first problem nothing more is spooled. Answers the
 * problems and each file's line count.
 */
async function validateSources(
  sources: readonly ImportSource[],
  spoolDir: string,
  options: ImportOptions,
  queue: SpoolQueue,
  signal: AbortSignal,
) {
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  const batchLines = options.batchLines ?? DEFAULT_BATCH_LINES;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // The keys of each entity's files read so far, dropped after its last file.
  const keysOf = new Map<string, { file: string; keys: KeyLines }[]>();
  const lastSourceOf = new Map(sources.map((source, index) => [source.entity.name, index]));
  let spooled = 0;
  let since = performance.now();
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
    const startedAt = Date.now();
    // The batch being spooled, line by line (a batch's text at once would be garbage of its size).
    let batch: { file: string; out: WriteStream; lines: number; last: number } | undefined;
    const spool = async (text: string, number: number) => {
      if (queue.unwanted) return;
      if (!batch) {
        const file = path.join(spoolDir, `${index}-${(spooled += 1)}.copy`);
        batch = { file, out: createWriteStream(file), lines: 0, last: 0 };
      }
      await write(batch.out, text);
      batch.lines += 1;
      batch.last = number;
      if (batch.lines >= batchLines) await handOver();
    };
    const handOver = async () => {
      if (!batch) return;
      const { file, out, last } = batch;
      batch = undefined;
      await new Promise((resolve) => out.end(resolve));
      if (!queue.unwanted) queue.push({ kind: 'batch', source, file, lastLine: last });
    };
    let lines = 0;
    try {
      for await (const { number, line } of numberedLines(source, maxLineBytes)) {
        lines = number;
        signal.throwIfAborted();
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
        } else if (parsed.key) {
          const first = firstOf(parsed.key.key);
          if (first)
            parsed.problems.push(
              duplicateProblem(source, { line: number, record: parsed.key.record }, first),
            );
          else keys.set(parsed.key.key, number);
        }
        if (!parsed.ok) {
          if (problemCount === 0) queue.refuse();
          problemCount += parsed.problems.length;
          for (const problem of parsed.problems)
            if (problems.length < (options.maxProblems ?? DEFAULT_MAX_PROBLEMS)) problems.push(problem);
        } else if (problemCount === 0) await spool(copyLine(parsed.staged), number);
        if (number % PROGRESS_EVERY_LINES === 0)
          options.onProgress?.({
            entity: source.entity.name,
            file: source.name,
            phase: 'validating',
            linesDone: number,
            startedAt,
          });
        if (performance.now() - since > YIELD_AFTER_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          since = performance.now();
        }
      }
      queue.linesOf.set(source, lines);
      await handOver();
    } catch (error) {
      // Stopped part-way (a signal, a failed read): the open batch's file is closed, not left to the GC.
      // Writes still pending fail then, which no one waits for any more.
      batch?.out.on('error', () => undefined).destroy();
      throw error;
    }
    if (problemCount === 0) queue.push({ kind: 'end', source, lines });
    if (lastSourceOf.get(source.entity.name) === index) keysOf.delete(source.entity.name);
  }
  return { problems, problemCount };
}

function addCounts(summary: MergeCounts, counts: MergeCounts): void {
  summary.created += counts.created;
  summary.updated += counts.updated;
  summary.unchanged += counts.unchanged;
  summary.refused += counts.refused;
}

/** A refused import, thrown to roll its transaction back and caught by importSources. */
class ImportRefused extends Error {
  constructor(readonly result: ImportResult) {
    super(`${result.problemCount} problems`);
  }
}

/**
 * Imports the sources into the tenant: validates all, then loads them in one transaction. Counted
 * for the operator's monitoring (docs/going-live.md "Operations"): running imports, each import's result and
 * the rows a written one merged, by entity and outcome.
 */
export async function importSources(
  db: Database,
  tenantId: string,
  sources: readonly ImportSource[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  // The demo seed (no `recordAs`) is no import of an order system's: it counts nowhere.
  if (!options.recordAs) return importSourcesOnce(db, tenantId, sources, options);
  const tenant = tenantLabel(tenantId);
  const via = options.recordAs;
  const record = (result: 'written' | 'refused' | 'error', problems: number) =>
    recordImportRun(db, tenantId, { result, via, problems }).catch(() => undefined);
  importsRunning.inc();
  try {
    const result = await importSourcesOnce(db, tenantId, sources, options);
    imports.inc({ tenant, result: result.ok ? 'written' : 'refused' });
    await record(result.ok ? 'written' : 'refused', result.ok ? 0 : result.problemCount);
    if (result.ok)
      for (const entity of result.entities)
        for (const outcome of ['created', 'updated', 'unchanged', 'refused', 'deleted'] as const)
          importRows.inc({ tenant, entity: entity.entity, outcome }, entity[outcome]);
    return result;
  } catch (error) {
    imports.inc({ tenant, result: 'error' });
    // An import stopped on purpose (the signal) is no failure of the order system's files.
    if (!options.signal?.aborted) await record('error', 0);
    throw error;
  } finally {
    importsRunning.dec();
  }
}

async function importSourcesOnce(
  db: Database,
  tenantId: string,
  sources: readonly ImportSource[],
  options: ImportOptions,
): Promise<ImportResult> {
  await removeStaleImportFolders();
  const spoolDir = await makeImportFolder('spool');
  // Pass 2 loads each batch while pass 1 checks the next (the database's work and the checking
  // take about as long, on separate cores). Nothing is committed before every line is checked: a
  // problem in pass 1 rolls back whatever pass 2 loaded.
  const queue = new SpoolQueue();
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const validating = validateSources(sources, spoolDir, options, queue, signal).finally(() => queue.close());
  // Awaited below; until then a failure of pass 1 is not an unhandled rejection.
  validating.catch(() => undefined);
  let validated: Awaited<typeof validating> | undefined;
  const checked = async () => (validated ??= await validating);
  try {
    const load = async (tx: Queryable) => {
      const result = await loadSources(tx, tenantId, sources, queue, options);
      if (!result.ok || queue.refused) {
        queue.unwanted = true;
        throw new ImportRefused(result);
      }
      // Everything checked, and not one problem: then the loaded batches are the import.
      if ((await checked()).problemCount > 0) throw new ImportRefused(result);
      return result;
    };
    let loaded: ImportResult | undefined;
    try {
      loaded = options.transaction
        ? await underSavepoint(options.transaction, load)
        : await db.transaction(load);
    } catch (error) {
      if (!(error instanceof ImportRefused)) {
        stop.abort(error);
        await validating.catch(() => undefined);
        throw error;
      }
      loaded = error.result;
    }
    const { problems, problemCount } = await checked();
    // The problems of pass 1 come first: with one, no record was merged for good.
    if (problemCount > 0) return { ok: false, problems, problemCount, stoppedEarly: false, entities: [] };
    return loaded;
  } finally {
    stop.abort();
    await validating.catch(() => undefined);
    await removeImportFolder(spoolDir);
  }
}

/** fn inside the caller's transaction, rolled back to where it started when it throws. */
async function underSavepoint<T>(tx: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  await tx.query('savepoint portal_import');
  try {
    const value = await fn(tx);
    await tx.query('release savepoint portal_import');
    return value;
  } catch (error) {
    await tx.query('rollback to savepoint portal_import');
    await tx.query('release savepoint portal_import');
    throw error;
  }
}

/**
 * Pass 2, in the import's transaction: each file's spooled batches as pass 1 hands them over. A
 * batch's problems are collected and the loading goes on, so every problem of every file is listed
 * (up to maxProblems); the caller rolls everything back when there is one. It stops at once when
 * pass 1 finds a problem: then nothing it loaded stays.
 */
async function loadSources(
  tx: Queryable,
  tenantId: string,
  sources: readonly ImportSource[],
  queue: SpoolQueue,
  options: ImportOptions,
): Promise<ImportResult> {
  const maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const full = options.full === true;
  const storedBefore = full
    ? await prepareFullSync(
        tx,
        tenantId,
        sources.map((s) => s.entity),
      )
    : undefined;
  const problems: ImportProblem[] = [];
  let problemCount = 0;
  const entities: EntitySummary[] = [];
  const refused = (stoppedEarly: boolean): ImportResult => ({
    ok: false,
    problems: problems.slice(0, maxProblems),
    problemCount,
    stoppedEarly,
    entities: [],
  });
  const startedAt = new Map<ImportSource, number>();
  const summaryOf = (source: ImportSource): EntitySummary => {
    let summary = entities.at(-1);
    if (!startedAt.has(source)) {
      startedAt.set(source, Date.now());
      summary = {
        entity: source.entity.name,
        file: source.name,
        lines: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        refused: 0,
        deleted: 0,
        refusedRecords: [],
      };
      entities.push(summary);
    }
    return summary!;
  };
  for (let item = await queue.next(); item; item = await queue.next()) {
    if (queue.refused) break;
    const { source } = item;
    const entity = source.entity;
    const summary = summaryOf(source);
    if (item.kind === 'end') {
      summary.lines = item.lines;
      if (problemCount === 0 && summary.created + summary.updated > ANALYZE_AFTER_WRITES)
        await analyzeEntityTables(tx, entity);
      continue;
    }
    options.signal?.throwIfAborted();
    const merged = await mergeBatch(
      tx,
      tenantId,
      source,
      { file: item.file },
      maxProblems - problems.length,
      true,
      full,
    );
    await rm(item.file, { force: true });
    addCounts(summary, merged.counts);
    summary.refusedRecords.push(
      ...merged.refusedRecords.slice(0, REFUSED_LISTED - summary.refusedRecords.length),
    );
    problemCount += merged.problems.length;
    problems.push(...merged.problems);
    options.onProgress?.({
      entity: entity.name,
      file: source.name,
      phase: 'loading',
      linesDone: item.lastLine,
      linesTotal: queue.linesOf.get(source),
      startedAt: startedAt.get(source)!,
    });
    if (problems.length >= maxProblems) return refused(true);
  }
  if (problemCount > 0) return refused(false);
  // Deleted only once every line of every file is checked and merged (pass 1 found no problem).
  if (storedBefore && !queue.refused) {
    options.signal?.throwIfAborted();
    // Each entity's last file names its deletions (one file per entity but for code calling this).
    const files = new Map(
      entities.map((e) => [e.entity, { entity: orderSystemEntity(e.entity)!, file: e.file }]),
    );
    const deletion = await deleteUnnamedRecords(tx, tenantId, [...files.values()], {
      storedBefore,
      maxDeletePercent: options.maxDeletePercent ?? DEFAULT_MAX_DELETE_PERCENT,
      room: maxProblems,
    });
    if (deletion.problems.length > 0) {
      problems.push(...deletion.problems);
      problemCount += deletion.problems.length;
      return refused(problems.length >= maxProblems);
    }
    for (const [entity, count] of deletion.deleted)
      entities.filter((e) => e.entity === entity).at(-1)!.deleted = count;
  }
  return { ok: true, problems: [], problemCount: 0, stoppedEarly: false, entities };
}

/** A spooled line starts with its line number in the file (copyLine). */
function spooledLine(copyText: string): number {
  return Number(copyText.slice(0, copyText.indexOf('\t')));
}

const NO_COUNTS: MergeCounts = { created: 0, updated: 0, unchanged: 0, refused: 0 };

/**
 * One batch of spooled lines, staged and merged under a savepoint. Answers what it wrote and its
 * problems, sorted by line:
 *  - records naming rows that do not exist (UnknownReferencesError, which lists at most 100 a
 *    reference): they are left out of the staging table and the rest merged again, until none is
 *    left or `room` problems are found. The rest is merged, and not only listed, so that the files
 *    after it find its records and do not list every record naming them as well;
 *  - a record the database refuses (a constraint, a value out of a column's range): the batch is
 *    rolled back to its savepoint and halved until the line is found, which is then reported by
 *    its file and line like any other problem, never as the database's message alone.
 */
async function mergeBatch(
  tx: Queryable,
  tenantId: string,
  source: ImportSource,
  batch: SpooledBatch,
  room: number,
  optimistic = true,
  nameKeys = false,
): Promise<{ counts: MergeCounts; problems: ImportProblem[]; refusedRecords: RefusedRecord[] }> {
  const problems: ImportProblem[] = [];
  await tx.query('savepoint portal_import_batch');
  try {
    // A spooled file is COPYed as it is read, in pieces of 64 KB (its lines are read one by one
    // only when the database refuses one of its records).
    if ('file' in batch)
      await stageCopyChunks(
        tx,
        createReadStream(batch.file, { encoding: 'utf8', highWaterMark: 64 * 1024 }) as AsyncIterable<string>,
      );
    else await stageCopyLines(tx, batch.lines);
    // A full sync keeps every key the files name (a refused or stale record's too: it stays).
    if (nameKeys) await nameStagedKeys(tx, source.entity);
    for (;;) {
      try {
        // Pass 1 refused every key seen twice in the import, so a batch has each key once.
        const { refusedRecords, ...counts } = await mergeStaged(tx, tenantId, source.entity, {
          distinctKeys: true,
          optimistic,
        });
        await tx.query('release savepoint portal_import_batch');
        return { counts, problems: problems.sort((a, b) => a.line - b.line), refusedRecords };
      } catch (error) {
        if (!(error instanceof UnknownReferencesError)) throw error;
        problems.push(...error.problems.map((problem) => ({ file: source.name, ...problem })));
        if (problems.length >= room) {
          await tx.query('release savepoint portal_import_batch');
          return {
            counts: NO_COUNTS,
            problems: problems.sort((a, b) => a.line - b.line),
            refusedRecords: [],
          };
        }
        await tx.query('delete from order_system_staging where line = any($1::int[])', [
          error.problems.map((problem) => problem.line),
        ]);
      }
    }
  } catch (error) {
    if (!isRefusedRecord(error)) throw error;
    await tx.query('rollback to savepoint portal_import_batch');
    await tx.query('release savepoint portal_import_batch');
    // Whatever the database refused, the batch is merged again without assuming anything
    // (mergeStaged's `optimistic`): its problems are then found and listed as they always were.
    if (optimistic) return mergeBatch(tx, tenantId, source, batch, room, false, nameKeys);
    const lines = await linesOf(batch);
    if (lines.length === 1)
      return {
        counts: NO_COUNTS,
        problems: [databaseProblem(source, spooledLine(lines[0]), error)],
        refusedRecords: [],
      };
    const half = Math.ceil(lines.length / 2);
    const first = await mergeBatch(
      tx,
      tenantId,
      source,
      { lines: lines.slice(0, half) },
      room,
      false,
      nameKeys,
    );
    if (first.problems.length >= room) return first;
    const second = await mergeBatch(
      tx,
      tenantId,
      source,
      { lines: lines.slice(half) },
      room - first.problems.length,
      false,
      nameKeys,
    );
    const counts = { ...first.counts };
    addCounts(counts, second.counts);
    return {
      counts,
      problems: [...first.problems, ...second.problems],
      refusedRecords: [...first.refusedRecords, ...second.refusedRecords],
    };
  }
}

/** PostgreSQL's error fields (pg's DatabaseError). */
interface DatabaseError {
  code?: string;
  table?: string;
  column?: string;
  constraint?: string;
  /** For a unique violation: `Key (tenant_id, client_id, order_number)=(…) already exists.` */
  detail?: string;
}

/**
 * Errors a record causes (SQLSTATE classes 21 cardinality, 22 data exception, 23 integrity
 * constraint, and 54000 a value too large for an index), as opposed to a lost connection or a
 * mistake in the SQL, which are thrown on.
 */
function isRefusedRecord(error: unknown): boolean {
  const code = (error as DatabaseError | null)?.code;
  return typeof code === 'string' && (/^2[123]/.test(code) || code === '54000');
}

/**
 * What the database refused in a record, in the words of the other problems (docs/going-live.md "Going live
 * with your order system", 3. Import: every problem as `file:line /pointer message`): the column
 * it names, or the column of a check named `<table>_<column>_check` (PostgreSQL's name for a
 * column's check), becomes the pointer; the constraint's name, from the migrations, tells which rule.
 */
function databaseProblem(source: ImportSource, line: number, error: unknown): ImportProblem {
  const { code = '', table, column, constraint, detail } = error as DatabaseError;
  // A unique rule names its fields (the tenant's own column aside), as the upserts' 409
  // duplicate_value does: which values another record of this tenant already has.
  const uniqueFields = (/^Key \((.+?)\)=/.exec(detail ?? '')?.[1] ?? '')
    .split(', ')
    .filter((name) => name !== '' && name !== 'tenant_id')
    .map(fieldOf);
  const checked =
    code === '23514' && table && constraint?.startsWith(`${table}_`) && constraint.endsWith('_check')
      ? constraint.slice(table.length + 1, -'_check'.length)
      : undefined;
  const pointerColumn =
    column ?? (checked && source.entity.columns.some((c) => c.column === checked) ? checked : undefined);
  const pointerField = pointerColumn ? fieldOf(pointerColumn) : uniqueFields[0];
  const messages: Record<string, string> = {
    '22001': 'has a text longer than its column takes',
    '22003': 'has a number out of its column’s range',
    '22007': 'has a date or time the database cannot read',
    '22008': 'has a date or time out of range',
    '22021': 'has a character the database cannot store',
    '22P05': 'has a character the database cannot store',
    '23502': 'is required',
    '23503': `names a row that does not exist (${constraint})`,
    '23505':
      code === '23505' && uniqueFields.length > 0
        ? `has the same ${uniqueFields.join(' and ')} as another record of this tenant: ${uniqueFields.length > 1 ? 'together they name' : 'it names'} one record only (change it, or send the other record's id)`
        : `clashes with another row (unique: ${constraint})`,
    '23514': `breaks a rule of the table (check: ${constraint})`,
    '54000': 'has a value too large for the database to index',
  };
  return {
    file: source.name,
    line,
    pointer: pointerField ? `/${pointerField}` : '',
    message:
      messages[code] ?? `is refused by the database (SQLSTATE ${code}${constraint ? `, ${constraint}` : ''})`,
  };
}

/** `file:line /pointer message`, the way `portal validate` reports a tenant file's problems. */
export function formatProblem(problem: ImportProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}${problem.pointer ? ` ${problem.pointer}` : ''} ${problem.message}`;
}

/**
 * The problems as lines for a person: one problem repeated on many lines of a file (every line's
 * `bpNumber` in the wrong form, say) is one line naming where else it is, not a screenful of the
 * same words.
 */
export function formatProblemList(problems: readonly ImportProblem[]): string[] {
  const groups = new Map<string, ImportProblem[]>();
  for (const problem of problems) {
    const key = [problem.file, problem.pointer, problem.message, problem.key ?? ''].join('\u0000');
    const group = groups.get(key);
    if (group) group.push(problem);
    else groups.set(key, [problem]);
  }
  return [...groups.values()].map(([first, ...others]) => {
    const lines = others.filter((problem) => problem.line > 0).map((problem) => problem.line);
    if (lines.length === 0) return formatProblem(first);
    const shown = lines.slice(0, 5).join(', ');
    const rest = lines.length > 5 ? ` and ${lines.length - 5} more` : '';
    return `${formatProblem(first)} (the same on line${lines.length === 1 ? '' : 's'} ${shown}${rest})`;
  });
}
