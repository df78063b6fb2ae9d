/**
 * A server process for `npm run bench` (bench/run.ts), so the load generator never shares a thread
 * or a process with what it measures, and the server's memory can be read on its own.
 *
 *   tsx bench/apiServer.ts portal <dataDir>   the portal's app on the embedded PostgreSQL (or on
 *                                             DATABASE_URL), demo data of technikwelt, signed in
 *   tsx bench/apiServer.ts plain <json-file>  plain Express answering that JSON: the baseline
 *   tsx bench/apiServer.ts plain <json-file> compressed   the same through the portal's compression
 *                                             (server/http/compression.ts), bench/compression.ts's baseline
 *   tsx bench/apiServer.ts portal <dataDir> observed   the portal with request metrics and its metrics
 *                                             endpoint on, and tracing from the OTEL_* variables
 *                                             (bench/observability.ts)
 *
 * Prints one JSON line when listening: { url, pid, postmasterPid?, token?, headers?, readHeaders?, paths }.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

const [mode, arg, variant] = process.argv.slice(2);

// Tracing patches express and pg as they load: started before anything imports them.
const tracing =
  mode === 'portal' && variant === 'observed'
    ? await (await import('../server/telemetry/tracing')).startTracingFromEnv()
    : undefined;
const { default: express } = await import('express');

async function listen(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  server.requestTimeout = 30_000;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (mode === 'rawpg') {
  // The write call's baseline: the same transaction as POST …/attributes — the
  // attribute UPDATE, the activity row and the account event — as raw SQL on a pg pool of the same
  // database, behind a plain Express JSON endpoint: what the portal's checks, validation, session,
  // capability rule and read-back cost on top of the database work itself.
  const [, , tenantId, subscriptionId, userId] = process.argv.slice(2);
  const { openDatabase } = await import('../server/db/openDatabase');
  const { randomUUID } = await import('node:crypto');
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: arg, shareRunning: true });
  const app = express();
  app.post('/json', express.json(), async (req, res) => {
    const { type, value } = req.body as { type: string; value: string };
    await db.transaction(async (tx) => {
      await tx.query(
        `update subscriptions
            set details = jsonb_set(details, '{orderAttributes}',
                  coalesce((select jsonb_agg(a) from jsonb_array_elements(coalesce(details->'orderAttributes', '[]'::jsonb)) a
                             where a->>'type' <> $3), '[]'::jsonb)
                  || jsonb_build_array(jsonb_build_object('type', $3::text, 'value', $4::text)))
          where tenant_id = $1 and id = $2`,
        [tenantId, subscriptionId, type, value],
      );
      await tx.query(
        `insert into account_activity (tenant_id, user_id, action, subject_id, details) values ($1, $2, $3, $4, $5::jsonb)`,
        [tenantId, userId, 'order_attribute', subscriptionId, JSON.stringify({ type, value })],
      );
      await tx.query(
        `insert into account_events (tenant_id, id, type, user_id, subject_type, subject_id, data) values ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
        [
          tenantId,
          randomUUID(),
          'order_attribute.changed',
          userId,
          'subscription',
          subscriptionId,
          JSON.stringify({ userId, subscriptionId, type, value }),
        ],
      );
    });
    res.json({ id: subscriptionId, type, value });
  });
  const url = await listen(app);
  console.log(JSON.stringify({ url, pid: process.pid, paths: { read: '/json', write: '/json' } }));
  const stop = () => void db.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else if (mode === 'plain') {
  const payload = JSON.parse(readFileSync(arg, 'utf8'));
  const app = express();
  if (variant === 'compressed') app.use((await import('../server/http/compression')).dynamicCompression());
  app.get('/json', (_req, res) => void res.json(payload));
  app.post('/json', express.json(), (_req, res) => void res.json(payload));
  const url = await listen(app);
  console.log(JSON.stringify({ url, pid: process.pid, paths: { read: '/json', write: '/json' } }));
} else {
  // The heap's growing factor as `portal serve` sets it (server/main.ts).
  (await import('../server/runtime/heapGrowth')).applyHeapGrowth();
  const { loadTenantFiles } = await import('../tenant');
  const { createApp } = await import('../server/app');
  const { openDatabase } = await import('../server/db/openDatabase');
  const { migrate } = await import('../server/db/migrate');
  const { createMailer } = await import('../server/mail/mailer');
  const { seedDemoData } = await import('../server/seed');
  const { insertLoginToken } = await import('../server/store/authStore');
  const { hashToken, newSecretToken } = await import('../server/auth/tokens');
  const { MAGIC_LINK_PURPOSE } = await import('../server/auth/authService');
  const { batchedJsonLogger } = await import('../server/http/requestLog');
  const { openSync, writeSync } = await import('node:fs');

  const { tenants } = await loadTenantFiles();
  const tenant = tenants.find((t) => t.id === 'technikwelt')!;
  (await import('node:fs')).mkdirSync(arg, { recursive: true });
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: arg });
  await migrate(db);
  const logins = await seedDemoData(db, [tenant]);
  // The request log is on, as in production: written as `portal serve` writes it when its stdout is
  // a file a log shipper reads (server/http/requestLog.ts batchedJsonLogger: one synchronous write
  // per turn of the event loop).
  const logFile = openSync(path.join(arg, 'requests.log'), 'a');
  const { app, auth } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(arg, 'dist'),
    mailer: createMailer({ outboxDir: path.join(arg, 'outbox') }),
    log: batchedJsonLogger({ write: (chunk: string) => writeSync(logFile, chunk) }),
    metrics: variant === 'observed',
  });
  const metrics =
    variant === 'observed'
      ? await (await import('../server/metrics/scrape')).startMetricsServer(db, { port: 0 })
      : undefined;
  const token = newSecretToken();
  const email = logins.find((l) => l.tenantId === tenant.id)!.email;
  await insertLoginToken(db, tenant.id, {
    tokenHash: hashToken(token),
    email,
    purpose: MAGIC_LINK_PURPOSE,
    expiresAt: new Date(Date.now() + 600_000),
  });
  const { accessToken, user } = await auth.loginWithToken(tenant, token);
  const url = await listen(app);
  const base = `/t/${tenant.id}/api`;

  // The write call: set an order attribute the tenant lets subscribers edit, on the first of the
  // user's subscriptions that allows it (one UPDATE and one activity row per request).
  const headers = {
    'x-auth-token': accessToken,
    cookie: 'XSRF-TOKEN=bench',
    'x-xsrf-token': 'bench',
    'content-type': 'application/json',
  };
  const subscriptions = (await (await fetch(`${url}${base}/subscriptions`, { headers })).json()) as Array<{
    id: string;
  }>;
  const body = JSON.stringify({ type: 'KOSTENSTELLE', value: '4711' });
  let write: string | undefined;
  for (const s of subscriptions) {
    const answer = await fetch(`${url}${base}/subscriptions/${encodeURIComponent(s.id)}/attributes`, {
      method: 'POST',
      headers,
      body,
    });
    if (answer.ok) {
      write = `${base}/subscriptions/${encodeURIComponent(s.id)}/attributes`;
      break;
    }
  }
  // One invoice made before any load, as a subscriber's download makes it: the PDF with its
  // embedded e-invoice, so the memory measured afterwards holds the e-invoice library as in a
  // server that has been running a while (docs/testing.md "Tests and measurements").
  let invoiceMade = false;
  for (const s of subscriptions) {
    const subscription = `${url}${base}/subscriptions/${encodeURIComponent(s.id)}`;
    const history = await fetch(`${subscription}/payment-history`, { headers });
    if (!history.ok) continue;
    const page = (await history.json()) as { items?: Array<{ id: string; documentId?: string }> };
    const payment = page.items?.find((item) => item.documentId);
    if (!payment) continue;
    const pdf = await fetch(`${subscription}/invoices/${encodeURIComponent(payment.id)}/download`, {
      headers,
    });
    if (pdf.ok && (await pdf.arrayBuffer()).byteLength > 0) {
      invoiceMade = true;
      break;
    }
  }
  if (!invoiceMade) throw new Error('no invoice of the demo subscriber could be made before the load');
  const postmasterPid =
    db.kind === 'embedded'
      ? Number(readFileSync(path.join(arg, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])
      : undefined;
  console.log(
    JSON.stringify({
      url,
      pid: process.pid,
      postmasterPid,
      token: accessToken,
      headers,
      writeBody: body,
      // A read as a signed-in browser sends it: its token, and the XSRF cookie the portal set on its
      // first answer (so no answer sets a new one); the header goes only with writes.
      readHeaders: { 'x-auth-token': accessToken, cookie: headers.cookie },
      paths: { read: `${base}/subscriptions`, write },
      tenantId: tenant.id,
      userId: user.id,
      subscriptionId: write ? decodeURIComponent(write.split('/')[5]) : undefined,
      metricsUrl: metrics?.url,
      tracing: Boolean(tracing),
    }),
  );
  const stop = () =>
    void Promise.all([metrics?.close(), tracing?.shutdown()])
      .then(() => db.close())
      .then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
