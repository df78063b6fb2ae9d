/**
 * A server process for `npm run bench` (bench/run.ts), so the load generator never shares a thread
 * or a process with what it measures, and the server's memory can be read on its own.
 *
 *   tsx bench/apiServer.ts portal <dataDir>   the portal's app on the embedded PostgreSQL (or on
 *                                             DATABASE_URL), demo data of technikwelt, signed in
 *   tsx bench/apiServer.ts plain <json-file>  plain Express answering that JSON: the baseline
 *   tsx bench/apiServer.ts plain <json-file> compressed   the same through the portal's compression
 *                                             (server/http/compression.ts), bench/compression.ts's baseline
 *
 * Prints one JSON line when listening: { url, pid, postmasterPid?, token?, paths }.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';

const [mode, arg, variant] = process.argv.slice(2);

async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  server.requestTimeout = 30_000;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (mode === 'plain') {
  const payload = JSON.parse(readFileSync(arg, 'utf8'));
  const app = express();
  if (variant === 'compressed') app.use((await import('../server/http/compression')).dynamicCompression());
  app.get('/json', (_req, res) => void res.json(payload));
  app.post('/json', express.json(), (_req, res) => void res.json(payload));
  const url = await listen(app);
  console.log(JSON.stringify({ url, pid: process.pid, paths: { read: '/json', write: '/json' } }));
} else {
  const { loadTenantFiles } = await import('../tenant');
  const { createApp } = await import('../server/app');
  const { openDatabase } = await import('../server/db/openDatabase');
  const { migrate } = await import('../server/db/migrate');
  const { createMailer } = await import('../server/mail/mailer');
  const { seedDemoData } = await import('../server/seed');
  const { insertLoginToken } = await import('../server/store/authStore');
  const { hashToken, newSecretToken } = await import('../server/auth/tokens');
  const { MAGIC_LINK_PURPOSE } = await import('../server/auth/authService');
  const { jsonLogger } = await import('../server/http/requestLog');
  const { createWriteStream } = await import('node:fs');

  const { tenants } = await loadTenantFiles();
  const tenant = tenants.find((t) => t.id === 'technikwelt')!;
  (await import('node:fs')).mkdirSync(arg, { recursive: true });
  const db = await openDatabase({ url: process.env.DATABASE_URL, dataDir: arg });
  await migrate(db);
  const logins = await seedDemoData(db, [tenant]);
  // The request log is on, as in production, written to a file the way a log shipper would read it.
  const logFile = createWriteStream(path.join(arg, 'requests.log'));
  const { app, auth } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(arg, 'dist'),
    mailer: createMailer({ outboxDir: path.join(arg, 'outbox') }),
    log: jsonLogger((line) => logFile.write(`${line}\n`)),
  });
  const token = newSecretToken();
  const email = logins.find((l) => l.tenantId === tenant.id)!.email;
  await insertLoginToken(db, tenant.id, {
    tokenHash: hashToken(token),
    email,
    purpose: MAGIC_LINK_PURPOSE,
    expiresAt: new Date(Date.now() + 600_000),
  });
  const { accessToken } = await auth.loginWithToken(tenant, token);
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
      paths: { read: `${base}/subscriptions`, write },
    }),
  );
  const stop = () => void db.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
