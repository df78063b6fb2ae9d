/**
 * Durability of the embedded default (issue "Native PostgreSQL as the embedded default"): a stream of
 * acknowledged writes, then kill -9 of the portal process, and separately of the PostgreSQL
 * postmaster. Afterwards every write the portal acknowledged (200) is in the database, and none is
 * half-applied: each write is one transaction (the order attribute and its activity row), so the
 * attribute always holds the value of the newest activity row.
 *
 * The portal runs as a real child process (bench/apiServer.ts: the app on the embedded PostgreSQL
 * with fsync on, demo data of technikwelt). Bounded in time: writes for about a second per phase.
 * Only in the embedded project: PostgreSQL at DATABASE_URL is not ours to kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../support/database';

interface PortalInfo {
  url: string;
  pid: number;
  postmasterPid: number;
  headers: Record<string, string>;
  paths: { read: string; write?: string };
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];

async function startPortal(dataDir: string): Promise<PortalInfo> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench', 'apiServer.ts'), 'portal', dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<PortalInfo>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as PortalInfo);
    });
    child.once('exit', (code) => reject(new Error(`portal exited (${code}) before listening: ${stderr}`)));
  });
}

/** Writes in 4 parallel loops until `stopAt`; answers the values the portal acknowledged. */
async function writeStream(
  info: PortalInfo,
  prefix: string,
  stopAt: () => boolean,
): Promise<{ acknowledged: string[]; failed: number }> {
  const acknowledged: string[] = [];
  let failed = 0;
  const loop = async (n: number) => {
    for (let i = 0; !stopAt(); i += 1) {
      const value = `${prefix}-${n}-${i}`;
      try {
        const answer = await fetch(`${info.url}${info.paths.write}`, {
          method: 'POST',
          headers: info.headers,
          body: JSON.stringify({ type: 'KOSTENSTELLE', value }),
          signal: AbortSignal.timeout(5_000),
        });
        if (answer.status === 200) acknowledged.push(value);
        else failed += 1;
      } catch {
        failed += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  await Promise.all([0, 1, 2, 3].map(loop));
  return { acknowledged, failed };
}

async function portalDatabase(dataDir: string): Promise<pg.Client> {
  const password = (await readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  const port = Number(
    (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[3],
  );
  const client = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/portal`,
  });
  await client.connect();
  return client;
}

function subscriptionIdOf(info: PortalInfo): string {
  return decodeURIComponent(/subscriptions\/([^/]+)\/attributes/.exec(info.paths.write!)![1]);
}

async function checkDurable(
  client: pg.Client,
  subscriptionId: string,
  acknowledged: string[],
): Promise<void> {
  const { rows } = await client.query<{ value: string }>(
    `select details->>'value' as value from account_activity where action = 'order_attribute' and subject_id = $1 order by created_at, id`,
    [subscriptionId],
  );
  const stored = new Set(rows.map((r) => r.value));
  expect(acknowledged.filter((v) => !stored.has(v))).toEqual([]);
  // Not half-applied: the attribute holds the value of the newest activity row.
  const { rows: attribute } = await client.query<{ value: string }>(
    `select attrs->>'value' as value from subscriptions s, jsonb_array_elements(s.details->'orderAttributes') attrs
      where s.id = $1 and attrs->>'type' = 'KOSTENSTELLE'`,
    [subscriptionId],
  );
  expect(attribute[0]?.value).toBe(rows[rows.length - 1].value);
}

const kill = (pid: number) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

describe.skipIf(testDatabaseKind() !== 'embedded')('crash recovery of the embedded PostgreSQL', () => {
  let dataDir: string;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write through kill -9 of the portal and of PostgreSQL', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-crash-'));

    // 1. kill -9 of the portal process in the middle of a stream of writes.
    const first = await startPortal(dataDir);
    // The portal found a subscription whose order attribute the tenant lets subscribers edit.
    expect(first.paths.write).toMatch(/^\/t\/technikwelt\/api\/subscriptions\/[^/]+\/attributes$/);
    const subscriptionId = subscriptionIdOf(first);
    const started = Date.now();
    const killAfter = setTimeout(() => kill(first.pid), 1_200);
    const phase1 = await writeStream(first, 'p1', () => Date.now() - started > 2_000);
    clearTimeout(killAfter);
    expect(phase1.acknowledged.length).toBeGreaterThan(10);
    expect(phase1.failed).toBeGreaterThan(0); // the kill did land mid-stream

    // The next start finds the orphaned postmaster of the killed portal and takes over.
    const second = await startPortal(dataDir);
    expect(second.postmasterPid).not.toBe(first.postmasterPid);
    let client = await portalDatabase(dataDir);
    await checkDurable(client, subscriptionId, phase1.acknowledged);
    await client.end();

    // 2. kill -9 of the postmaster while the portal keeps writing: requests fail with 503 meanwhile,
    // the portal starts PostgreSQL again and carries on without a restart of its own.
    const started2 = Date.now();
    const killPg = setTimeout(() => kill(second.postmasterPid), 800);
    const phase2 = await writeStream(second, 'p2', () => Date.now() - started2 > 6_000);
    clearTimeout(killPg);
    expect(phase2.failed).toBeGreaterThan(0);
    const after = await fetch(`${second.url}${second.paths.write}`, {
      method: 'POST',
      headers: second.headers,
      body: JSON.stringify({ type: 'KOSTENSTELLE', value: 'after-recovery' }),
    });
    expect(after.status).toBe(200);
    client = await portalDatabase(dataDir);
    await checkDurable(client, subscriptionId, [
      ...phase1.acknowledged,
      ...phase2.acknowledged,
      'after-recovery',
    ]);
    await client.end();
  }, 90_000);
});
