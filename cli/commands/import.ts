import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type {
  EntitySummary,
  ImportOptions,
  ImportProgress,
  ImportResult,
} from '../../server/operator/import/importRecords';
import type { TenantLanguages } from '../../engine/domain/language';

function parseBatch(value: string): number {
  const lines = Number(value);
  if (!Number.isInteger(lines) || lines < 1 || lines > 1_000_000)
    throw new InvalidArgumentError('write a whole number from 1 to 1000000');
  return lines;
}

/** Lines up to 256 MB: a JavaScript string (the record's JSON) cannot be much longer. */
const MAX_LINE_BYTES_LIMIT = 256 * 1024 ** 2;

function parseMaxLineBytes(value: string): number {
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > MAX_LINE_BYTES_LIMIT)
    throw new InvalidArgumentError(`write a whole number of bytes from 1 to ${MAX_LINE_BYTES_LIMIT}`);
  return bytes;
}

/** `--allow-deletes 25%` (or `25`): a whole percent from 0 to 100. */
export function parseAllowDeletes(value: string): number {
  const match = /^\s*(\d{1,3})\s*%?\s*$/.exec(value);
  const percent = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(percent) || percent > 100)
    throw new InvalidArgumentError('write a whole percent from 0 to 100, such as 25%');
  return percent;
}

const count = (n: number) => n.toLocaleString('en-GB');

/** One progress line: the file, how far, and the rate since it started. */
export function formatProgress(progress: ImportProgress, now = Date.now()): string {
  const seconds = Math.max((now - progress.startedAt) / 1000, 0.001);
  const rate = Math.round(progress.linesDone / seconds);
  const of = progress.linesTotal ? ` of ${count(progress.linesTotal)}` : '';
  return `${progress.phase === 'validating' ? 'checking' : 'loading '} ${progress.file}: ${count(progress.linesDone)}${of} lines, ${count(rate)} lines/s`;
}

/**
 * The summary table: one line per file with created, updated, unchanged, refused and deleted (by a
 * full sync, `--full`; 0 without it); then the refused
 * records by file, line and key (the first REFUSED_LISTED of each file), so the operator can tell the
 * order system which ones it sent stale.
 */
export function formatSummary(entities: readonly EntitySummary[]): string {
  const header = ['file', 'lines', 'created', 'updated', 'unchanged', 'refused', 'deleted'];
  const rows = entities.map((e) => [
    e.file,
    count(e.lines),
    count(e.created),
    count(e.updated),
    count(e.unchanged),
    count(e.refused),
    count(e.deleted),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const refused = entities.flatMap((e) => [
    ...e.refusedRecords.map(
      (r) =>
        `refused: ${e.file}:${r.line} key ${JSON.stringify(r.key)} version ${r.version} ${
          r.version < r.storedVersion
            ? `is older than the stored ${r.storedVersion}`
            : 'is the stored version with other content'
        }`,
    ),
    ...(e.refused > e.refusedRecords.length
      ? [`refused: ${e.file}: ${count(e.refused - e.refusedRecords.length)} more`]
      : []),
  ]);
  return [line(header), ...rows.map(line), ...refused].join('\n');
}

export interface ImportCommandResult {
  result: ImportResult;
  /** What the command prints: problems or the summary. */
  text: string;
}

/**
 * `portal import <tenant> <file or folder>` as a function (the tests call it): reads the NDJSON
 * files, imports them into the tenant and answers the text the command prints.
 */
export async function runImport(
  db: import('../../server/db/database').Database,
  tenantId: string,
  target: string,
  {
    languages,
    ...options
  }: Pick<
    ImportOptions,
    'batchLines' | 'maxLineBytes' | 'maxProblems' | 'onProgress' | 'signal' | 'full' | 'maxDeletePercent'
  > & {
    /** The tenant's languages, which each text by locale is checked against (none: not checked). */
    languages?: TenantLanguages;
  } = {},
): Promise<ImportCommandResult> {
  const { importSources, sourcesAt, formatProblemList, recordImportRun } =
    await import('../../server/operator/import/importRecords');
  const { withTenantLanguages } = await import('../../server/operator/entities/orderSystemRecords');
  const { sources, problems } = await sourcesAt(target);
  if (problems.length > 0) {
    await recordImportRun(db, tenantId, { result: 'refused', via: 'cli', problems: problems.length }).catch(
      () => undefined,
    );
    const result: ImportResult = {
      ok: false,
      problems,
      problemCount: problems.length,
      stoppedEarly: false,
      entities: [],
    };
    return { result, text: formatProblemList(problems).join('\n') };
  }
  const run = () => importSources(db, tenantId, sources, { ...options, recordAs: 'cli' });
  const result = await (languages ? withTenantLanguages(languages, run) : run());
  if (!result.ok) {
    const listed = formatProblemList(result.problems);
    if (result.stoppedEarly)
      listed.push(
        `… the import stopped looking after ${count(result.problems.length)} problems; there may be more`,
      );
    else if (result.problemCount > result.problems.length)
      listed.push(`… and ${count(result.problemCount - result.problems.length)} more problems`);
    return { result, text: `${listed.join('\n')}\n\nNothing was written.` };
  }
  return { result, text: formatSummary(result.entities) };
}

/** Seconds a stopped import may take to roll back before the process goes anyway. */
const STOP_GRACE_MS = 10_000;

/**
 * SIGINT and SIGTERM while the import runs (docs/going-live.md "Going live with your order system",
 * 3. Import: the spool goes when the run ends, fails or is stopped): the import is aborted between two
 * lines or batches, rolls back and removes its spool, and the command closes the database as usual. Should
 * it not get there in time (a query waiting for a lock), or on a second signal, the spool is removed
 * at once and the process exits; PostgreSQL rolls back a transaction whose connection is gone.
 */
function stopOnSignals(removeImportFoldersNow: () => void) {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const exitCode = () => (received === 'SIGINT' ? 130 : 143);
  const now = () => {
    removeImportFoldersNow();
    process.exit(exitCode());
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) return now();
    received = signal;
    controller.abort(new Error(`stopped by ${signal}`));
    setTimeout(now, STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    received: () => received,
    exitCode,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** `portal import`'s options as commander reads them. */
interface ImportCommandOptions {
  batch?: number;
  maxLineBytes?: number;
  full?: boolean;
  allowDeletes?: number;
}

/**
 * `portal import <tenant> <file|folder> [--batch N] [--max-line-bytes N] [--full [--allow-deletes N%]]`
 * (docs/going-live.md "Going live with your order system", 3. Import): the order system's NDJSON files
 * into a tenant, on DATABASE_URL or the embedded PostgreSQL, all or nothing. With --full each file is
 * the whole of its entity, and the entity's records it does not name are deleted. Every problem is
 * listed as `file:line /pointer message` and nothing is written (exit 1); progress with rates goes to a terminal; an interrupted import
 * leaves nothing behind and is simply run again; the summary ends it.
 */
export function registerImport(program: Command): void {
  program
    .command('import')
    .description(
      "import the order system's records into a tenant: NDJSON files named <entity>.ndjson (one file, or a folder of them), checked line by line, then merged by version in one transaction, all or nothing (DATABASE_URL, or the embedded PostgreSQL under data/)",
    )
    .argument('<tenant>', 'tenant id (a file in tenants/)')
    .argument('<path>', 'an <entity>.ndjson file or a folder of them')
    .option(
      '--batch <lines>',
      'lines per COPY and merge, all in one transaction (default: 20000)',
      parseBatch,
    )
    .option(
      '--max-line-bytes <bytes>',
      'longest line taken, in bytes; a longer one is reported (default: 1048576, 1 MB)',
      parseMaxLineBytes,
    )
    .option(
      '--full',
      "a full sync: each file is the whole of its entity, and the entity's records the file does not name are deleted (as DELETE …?version= deletes them), in the same transaction; entities without a file are left alone",
    )
    .option(
      '--allow-deletes <percent>',
      "with --full: the largest share of an entity's stored records its file may delete (default: 10%); more refuses the import",
      parseAllowDeletes,
    )
    .action(async (tenantId: string, target: string, options: ImportCommandOptions) => {
      if (options.allowDeletes !== undefined && !options.full) {
        console.error('--allow-deletes goes with --full: only a full sync deletes records.');
        process.exitCode = 1;
        return;
      }
      const { loadValidTenants } = await import('./loadValidTenants');
      const [tenant] = await loadValidTenants([tenantId]);
      // Before the database starts: a path typed wrong is said as such, not as a system error.
      if (!existsSync(target)) {
        console.error(
          `There is no file or folder ${target}: give an <entity>.ndjson file or a folder of them (docs/going-live.md "3. Import").`,
        );
        process.exitCode = 1;
        return;
      }
      const { withDatabase } = await import('./db');
      const { migrate } = await import('../../server/db/migrate');
      const tty = process.stderr.isTTY;
      let lastDraw = 0;
      const onProgress = (progress: ImportProgress) => {
        const now = Date.now();
        if (!tty || now - lastDraw < 200) return;
        lastDraw = now;
        process.stderr.write(`\r${formatProgress(progress, now)}\x1b[K`);
      };
      await withDatabase(async (db) => {
        await migrate(db);
        const { removeImportFoldersNow } = await import('../../server/operator/import/importRecords');
        const stop = stopOnSignals(removeImportFoldersNow);
        let outcome: ImportCommandResult;
        try {
          outcome = await runImport(db, tenantId, target, {
            batchLines: options.batch,
            maxLineBytes: options.maxLineBytes,
            full: options.full,
            maxDeletePercent: options.allowDeletes,
            onProgress,
            signal: stop.signal,
            languages: tenant,
          });
        } catch (error) {
          if (!stop.signal.aborted) throw error;
          if (tty) process.stderr.write('\r\x1b[K');
          console.error(`Stopped by ${stop.received()}: nothing was written. Run the same import again.`);
          process.exitCode = stop.exitCode();
          return;
        } finally {
          stop.dispose();
        }
        const { result, text } = outcome;
        if (tty) process.stderr.write('\r\x1b[K');
        if (!result.ok) {
          console.error(text);
          process.exitCode = 1;
          return;
        }
        console.log(text);
      });
    });
}
