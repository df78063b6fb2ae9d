/**
 * `npm run bench` section 5 (docs/going-live.md "3. Import"): `portal import` of N subscriptions with
 * their business partners, roles and a year of monthly payments, next to plain `COPY` of the same
 * rows into the same tables in the same run, with the importing process's memory (resident set,
 * sampled) to show it streams. The data is left in the database under the tenant technikwelt, so
 * section 6 reads GET /api/subscriptions with it there.
 *
 * N is 100,000 by default (1.6 million rows: a quick run); `-- --import-scale 1000000` is the
 * goal's million (16 million rows, several minutes on two cores). `npm run bench -- --import` runs
 * this section alone.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { Database, Queryable } from '../server/db/database';
import { ROOT_DIR } from '../cli/paths';

export const BENCH_TENANT = 'technikwelt';
const PAYMENTS_PER_SUBSCRIPTION = 12;
const PUBLICATION = { version: 1, publication: 'BENCH', clientId: '999', description: 'Bench Weekly' };

/** The i-th subscriber: partner, subscription (with roles) and payments, as import records. */
function subscriber(i: number) {
  const bpNumber = String(8_000_000_000 + i);
  const id = `999${String(i).padStart(10, '0')}`;
  const partner = {
    version: 1,
    bpNumber,
    salutationCode: '0001',
    firstName: `Vorname${i}`,
    lastName1: `Nachname${i}`,
    street: 'Benchstraße',
    streetNumber: String(1 + (i % 200)),
    zipcode: String(10000 + (i % 89999)),
    city: 'Berlin',
    countryCode: 'DE',
    emailAddress: `bench${i}@bench.example`,
  };
  const subscription = {
    version: 1,
    id,
    orderNumber: String(5_000_000_000 + i),
    publication: PUBLICATION.publication,
    orderStatus: 'A',
    mixType: 'PR',
    custOrderDate: '2025-01-01',
    validFrom: '2025-01-15',
    details: { displayName: 'Bench Weekly – Print', typeKey: 'PRINT' },
    roles: [
      { bpNumber, role: 'AG' },
      { bpNumber, role: 'WE' },
    ],
  };
  const payments = Array.from({ length: PAYMENTS_PER_SUBSCRIPTION }, (_, m) => ({
    version: 1,
    subscriptionId: id,
    id: `P${m + 1}`,
    date: `2025-${String(m + 1).padStart(2, '0')}-01`,
    amount: '24.90',
    currency: 'EUR',
    invoiceStatusCode: 'A',
    invoiceNumber: `R${i}-${m + 1}`,
  }));
  return { partner, subscription, payments };
}

/** Writes the NDJSON files of N subscribers into `folder`, streaming (with back-pressure). */
async function writeFiles(folder: string, count: number): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const open = (name: string) => createWriteStream(path.join(folder, `${name}.ndjson`));
  const files = {
    publications: open('publications'),
    partners: open('business-partners'),
    subscriptions: open('subscriptions'),
    payments: open('payments'),
  };
  const write = async (stream: NodeJS.WritableStream, text: string) => {
    if (!stream.write(text)) await once(stream, 'drain');
  };
  await write(files.publications, `${JSON.stringify(PUBLICATION)}\n`);
  for (let i = 0; i < count; i++) {
    const { partner, subscription, payments } = subscriber(i);
    await write(files.partners, `${JSON.stringify(partner)}\n`);
    await write(files.subscriptions, `${JSON.stringify(subscription)}\n`);
    await write(files.payments, payments.map((p) => `${JSON.stringify(p)}\n`).join(''));
  }
  await Promise.all(Object.values(files).map((stream) => new Promise((resolve) => stream.end(resolve))));
}

/** COPY text of a value: null as \N, backslash, tab and newlines escaped. */
const field = (value: unknown) =>
  value === null || value === undefined
    ? '\\N'
    : (typeof value === 'object' ? JSON.stringify(value) : String(value)).replace(
        /[\\\t\n\r]/g,
        (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
      );
const row = (values: unknown[]) => `${values.map(field).join('\t')}\n`;

/** The baseline: the same rows with plain COPY into the same tables, under another tenant. */
async function plainCopy(database: Database, tenantId: string, count: number): Promise<void> {
  // The order system's rows, written as it writes them: the trigger that records the portal's own
  // changes (migration 023) leaves them alone, as it does the import's merge.
  await database.transaction((db) => copyRows(db, tenantId, count));
}

async function copyRows(db: Queryable, tenantId: string, count: number): Promise<void> {
  await db.query(`select set_config('portal.order_system_write', 'on', true)`);
  await db.query(
    `insert into publications (tenant_id, publication, client_id, description) values ($1, $2, $3, $4)`,
    [tenantId, PUBLICATION.publication, PUBLICATION.clientId, PUBLICATION.description],
  );
  const each = function* (lines: (i: number) => string) {
    // Chunks of 1,000 rows: COPY's throughput without a write per row.
    for (let start = 0; start < count; start += 1000) {
      let chunk = '';
      for (let i = start; i < Math.min(count, start + 1000); i++) chunk += lines(i);
      yield chunk;
    }
  };
  await db.copyFrom!(
    `copy business_partners (tenant_id, bp_number, salutation_code, first_name, last_name1, street, street_number, zipcode, city, country_code, email_address) from stdin`,
    each((i) => {
      const p = subscriber(i).partner;
      return row([
        tenantId,
        p.bpNumber,
        p.salutationCode,
        p.firstName,
        p.lastName1,
        p.street,
        p.streetNumber,
        p.zipcode,
        p.city,
        p.countryCode,
        p.emailAddress,
      ]);
    }),
  );
  await db.copyFrom!(
    `copy subscriptions (tenant_id, id, order_number, publication, order_status, mix_type, cust_order_date, valid_from, details) from stdin`,
    each((i) => {
      const s = subscriber(i).subscription;
      return row([
        tenantId,
        s.id,
        s.orderNumber,
        s.publication,
        s.orderStatus,
        s.mixType,
        s.custOrderDate,
        s.validFrom,
        s.details,
      ]);
    }),
  );
  await db.copyFrom!(
    `copy subscription_roles (tenant_id, subscription_id, bp_number, role) from stdin`,
    each((i) => {
      const s = subscriber(i).subscription;
      return s.roles.map((r) => row([tenantId, s.id, r.bpNumber, r.role])).join('');
    }),
  );
  await db.copyFrom!(
    `copy payment_history (tenant_id, subscription_id, id, date, amount, currency, invoice_status_code, invoice_number) from stdin`,
    each((i) =>
      subscriber(i)
        .payments.map((p) =>
          row([
            tenantId,
            p.subscriptionId,
            p.id,
            p.date,
            p.amount,
            p.currency,
            p.invoiceStatusCode,
            p.invoiceNumber,
          ]),
        )
        .join(''),
    ),
  );
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const perSecond = (rows: number, ms: number) =>
  `${Math.round((rows / ms) * 1000).toLocaleString('en-GB')} rows/s`;

/**
 * Runs section 5 on the database in `dataDir` (or DATABASE_URL): writes the files, times plain
 * COPY, times the import into technikwelt. Answers nothing; the data stays for section 6.
 */
export async function importSection(work: string, dataDir: string, count: number): Promise<void> {
  const { openDatabase } = await import('../server/db/openDatabase');
  const { migrate } = await import('../server/db/migrate');
  const folder = path.join(work, 'import-files');
  await writeFiles(folder, count);
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir });
  try {
    await migrate(db);
    const rows = count * (1 + 1 + 2 + PAYMENTS_PER_SUBSCRIPTION);
    console.log(
      `\n5. Order-system import: ${count.toLocaleString('en-GB')} subscriptions with partners, 2 roles and ${PAYMENTS_PER_SUBSCRIPTION} payments each (${rows.toLocaleString('en-GB')} rows), ${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'embedded PostgreSQL'}`,
    );
    const copyStart = performance.now();
    await plainCopy(db, 'bench-copy', count);
    const copyMs = performance.now() - copyStart;

    const bytes = readdirSync(folder).reduce((sum, file) => sum + statSync(path.join(folder, file)).size, 0);
    // The import as a publisher runs it: `portal import` in a process of its own (on this
    // database: the embedded cluster is shared with a running portal), its resident memory read
    // from /proc while it runs.
    const importStart = performance.now();
    const cli = spawn(process.execPath, ['cli/bin.mjs', 'import', BENCH_TENANT, folder], {
      cwd: ROOT_DIR,
      env: { ...process.env, PORTAL_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    cli.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const rss = () => {
      try {
        return (
          Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${cli.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024
        );
      } catch {
        return 0; // ended
      }
    };
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(rss()), 250);
    const [code] = (await once(cli, 'exit')) as [number];
    const importMs = performance.now() - importStart;
    clearInterval(sampler);
    if (code !== 0) throw new Error(`portal import failed (${code}):\n${output}`);
    const taken = samples.filter((sample) => sample > 0);
    // The first quarter of the run against the whole: a process that held its files would grow
    // with them; this one grows only by the keys it checks for repeats (docs/going-live.md "Going live with
    // your order system", 3. Import: about 150 MB at the peak for a million).
    const early = Math.max(...taken.slice(0, Math.max(1, Math.floor(taken.length / 4))));
    const peak = Math.max(...taken);
    await db.query('analyze');
    console.log(
      `   plain COPY                 ${(copyMs / 1000).toFixed(1)} s   ${perSecond(rows, copyMs)}   1.00×`,
    );
    console.log(
      `   portal import (the command) ${(importMs / 1000).toFixed(1)} s   ${perSecond(rows, importMs)}   ${(copyMs / importMs).toFixed(2)}× (goal: at least 0.5×; checks every line while it loads the checked batches: stages, compares versions, merges)`,
    );
    console.log(
      `   portal import's memory (RSS): ${mb(early)} in its first quarter, ${mb(peak)} at its peak, for ${mb(bytes)} of NDJSON (streamed: it grows only by the keys it checks for repeats, not with the files)`,
    );
  } finally {
    await db.close();
  }
}
