/**
 * `npm run bench`, 9. (docs/invoices.md "Issued documents, made once"): "Download my data" of a
 * subscriber with 33 invoices on `technikwelt` (hybrid ZUGFeRD / Factur-X PDFs), first with no
 * document kept (every invoice made, what every export cost before the store), then with the
 * documents kept; one invoice made next to one served from the store; the rounds the background job
 * needs to make the tenant's documents ahead; and the process's memory (RSS) at its peak, with an
 * e-invoice made before the exports (the library loaded, as in a server that has served one).
 * Figures and ratios, never a failing test. It runs in a process of its own (so the memory is this
 * work's alone, not the bench's builds'): `npx tsx bench/invoiceDocuments.ts`, embedded PostgreSQL
 * in a temporary folder, or DATABASE_URL (the bench tenant's rows are seeded afresh there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const INVOICES = 33;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2).padStart(6)} s`;
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(1)}×`;

export async function invoiceDocumentsSection(work: string): Promise<void> {
  const { loadTenantFiles } = await import('../tenant');
  const { openDatabase } = await import('../server/db/openDatabase');
  const { migrate } = await import('../server/db/migrate');
  const { seedDemoData, SHARED_DEMO_EMAIL } = await import('../server/seed');
  const { findUserByEmail } = await import('../server/store/userStore');
  const { exportPaymentHistory } = await import('../server/store/dataExportStore');
  const { zipOfAccount } = await import('../server/data-export/dataExportService');
  const { issuedInvoicePdf } = await import('../server/documents/issuedInvoices');
  const { invoicePdf, billedParty } = await import('../server/documents/documents');
  const { getSubscriptionForUser } = await import('../server/store/subscriptionStore');
  const { partnersOfSubscription } = await import('../server/store/accountChangeStore');
  const { findPayment } = await import('../server/store/orderStore');
  const { makeInvoiceDocuments, PER_ROUND } = await import('../server/jobs/invoiceDocuments');

  const { tenants } = await loadTenantFiles();
  const tenant = tenants.find((t) => t.id === 'technikwelt')!;
  const dataDir = path.join(work, 'invoice-db');
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    await migrate(db);
    const today = new Date();
    await seedDemoData(db, [tenant], { today });
    const user = (await findUserByEmail(db, tenant.id, SHARED_DEMO_EMAIL))!;
    const exportable = async () =>
      (await exportPaymentHistory(db, tenant.id, user.id)).filter((payment) => payment.documentId);
    // The demo subscriber's invoices made up to 33, as the order system books them: copies of its
    // newest invoice a month apart each, on the same subscription.
    const have = await exportable();
    const [model] = have;
    for (let i = have.length; i < INVOICES; i++) {
      await db.transaction(async (tx) => {
        await tx.query(`set local portal.order_system_write = 'on'`);
        await tx.query(
          `insert into payment_history (tenant_id, subscription_id, id, date, amount, currency, invoice_status_code,
                                        invoice_number, external_document_number, document_id, paid_amount, lines)
           select tenant_id, subscription_id, $4, date - ($5 || ' months')::interval, amount, currency, invoice_status_code,
                  $6, external_document_number, $7, paid_amount, lines
             from payment_history where tenant_id = $1 and subscription_id = $2 and id = $3`,
          [
            tenant.id,
            model.subscriptionId,
            model.id,
            `BENCH${i}`,
            i,
            `97000000${String(i).padStart(2, '0')}`,
            `DOC-BENCH-${i}`,
          ],
        );
      });
    }
    const invoices = await exportable();

    const exportOnce = async () => {
      const started = performance.now();
      let bytes = 0;
      for await (const chunk of zipOfAccount(db, tenant, user.id, 'de-DE', today))
        bytes += (chunk as Buffer).length;
      return { time: performance.now() - started, bytes };
    };
    const input = async (payment: (typeof invoices)[number], locale: 'de-DE' | 'en-GB') => {
      const subscription = (await getSubscriptionForUser(db, tenant.id, user.id, payment.subscriptionId, {
        locale,
      }))!;
      return {
        tenantId: tenant.id,
        subscriptionId: subscription.id,
        input: {
          tenant,
          locale,
          subscription,
          payment: (await findPayment(db, tenant.id, subscription.id, payment.id))!,
          billedTo: billedParty(
            await partnersOfSubscription(db, tenant.id, subscription.id, user.id),
            subscription.orderingParty,
          ),
        },
      };
    };

    // An e-invoice made before the load (in the other language, so no export finds it kept).
    await invoicePdf((await input(invoices[0], 'en-GB')).input);
    const before = process.memoryUsage().rss;
    peak = before;
    const cold = await exportOnce();
    const coldPeak = peak;
    peak = process.memoryUsage().rss;
    const warm = await exportOnce();
    const warmPeak = peak;

    // One invoice: made (its kept rows removed before each) and served from the store; median of 5.
    const one = await input(invoices[1], 'de-DE');
    const median = async (work: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await work();
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[2];
    };
    const made = await median(async () => {
      await db.query(`delete from issued_invoice_documents where tenant_id = $1 and payment_id = $2`, [
        tenant.id,
        invoices[1].id,
      ]);
      await issuedInvoicePdf(db, one);
    });
    const kept = await median(() => issuedInvoicePdf(db, one));

    // The background job from an empty store: rounds until the tenant's invoices are made ahead.
    await db.query(`delete from issued_invoice_documents where tenant_id = $1`, [tenant.id]);
    const [{ waiting }] = await db.query<{ waiting: number }>(
      `select count(*)::int as waiting from payment_history where tenant_id = $1 and document_id is not null`,
      [tenant.id],
    );
    let rounds = 0;
    const jobStarted = performance.now();
    let roundMax = 0;
    for (;;) {
      const started = performance.now();
      const n = await makeInvoiceDocuments(db, { tenants: [tenant] });
      roundMax = Math.max(roundMax, performance.now() - started);
      if (n === 0) break;
      rounds++;
    }
    const jobTime = performance.now() - jobStarted;
    const afterJob = await exportOnce();
    const fresh = JSON.parse(
      execFileSync(
        process.execPath,
        ['--import', 'tsx', import.meta.filename, '--kept-export', dataDir, user.id],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      )
        .trim()
        .split('\n')
        .pop()!,
    ) as { before: number; peak: number; time: number };

    console.log(
      `\n9. Invoice documents (docs/invoices.md "Issued documents, made once"): "Download my data" of ${tenant.id}'s demo subscriber with ${invoices.length} invoices (hybrid ZUGFeRD / Factur-X PDFs), ${process.env.DATABASE_URL ? 'PostgreSQL at DATABASE_URL' : 'embedded PostgreSQL'}`,
    );
    console.log(
      `   export, no document kept (every invoice made) ${s(cold.time)}   1.00×   (${(cold.bytes / 1024 / 1024).toFixed(1)} MB ZIP)`,
    );
    console.log(
      `   export, documents kept                        ${s(warm.time)}   ${ratio(cold.time, warm.time)} faster   (goal: at most 5 s)`,
    );
    console.log(
      `   export after the job made them ahead          ${s(afterJob.time)}   ${ratio(cold.time, afterJob.time)} faster`,
    );
    console.log(`   one invoice made                              ${ms(made)}   (median of 5)`);
    console.log(`   one invoice served from the store             ${ms(kept)}   ${ratio(made, kept)} faster`);
    console.log(
      `   the job: ${waiting} invoices of the tenant in ${rounds} rounds of at most ${PER_ROUND} (${(jobTime / 1000).toFixed(1)} s of work, the longest round ${(roundMax / 1000).toFixed(2)} s; one round every 15 s)`,
    );
    console.log(
      `   memory (RSS of this process): ${mb(before)} after one e-invoice; peak during the export with every invoice made ${mb(coldPeak)}, then with the documents kept ${mb(warmPeak)}`,
    );
    console.log(
      `   a fresh process that made one e-invoice, then the export with the documents kept: ${s(fresh.time)}, memory ${mb(fresh.before)} before, ${mb(fresh.peak)} at the peak   (goal: at most 300 MB)`,
    );
  } finally {
    clearInterval(sampler);
    await db.close();
  }
}

/**
 * A fresh process on the same database, as a server that has made one e-invoice: the export with
 * the documents kept, and its memory from start to peak (the section's own process has grown by the
 * 33 invoices it made, and V8 does not give that back).
 */
async function keptExportInFreshProcess(dataDir: string, userId: string): Promise<void> {
  const { loadTenantFiles } = await import('../tenant');
  const { openDatabase } = await import('../server/db/openDatabase');
  const { zipOfAccount } = await import('../server/data-export/dataExportService');
  const { invoicePdf } = await import('../server/documents/documents');
  const { exportPaymentHistory } = await import('../server/store/dataExportStore');
  const { getSubscriptionForUser } = await import('../server/store/subscriptionStore');
  const { findPayment } = await import('../server/store/orderStore');
  const tenant = (await loadTenantFiles()).tenants.find((t) => t.id === 'technikwelt')!;
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir, shareRunning: true });
  const [first] = (await exportPaymentHistory(db, tenant.id, userId)).filter((p) => p.documentId);
  const subscription = (await getSubscriptionForUser(db, tenant.id, userId, first.subscriptionId, {
    locale: 'en-GB',
  }))!;
  const payment = (await findPayment(db, tenant.id, first.subscriptionId, first.id))!;
  await invoicePdf({ tenant, locale: 'en-GB', subscription, payment, billedTo: subscription.orderingParty });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  for await (const chunk of zipOfAccount(db, tenant, userId, 'de-DE', new Date())) void chunk;
  const time = performance.now() - started;
  clearInterval(sampler);
  await db.close();
  console.log(JSON.stringify({ before, peak, time }));
}

// `npx tsx bench/invoiceDocuments.ts`: this section alone (npm run bench runs it so, in its own process).
if (process.argv[2] === '--kept-export') {
  await keptExportInFreshProcess(process.argv[3], process.argv[4]);
} else if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const work = mkdtempSync(path.join(tmpdir(), 'portal-bench-invoices-'));
  try {
    await invoiceDocumentsSection(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
