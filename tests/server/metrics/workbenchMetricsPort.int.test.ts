/**
 * A workbench (`portal dev`, `portal studio`, `portal preview`) starts beside the running portal,
 * whose METRICS_PORT the shared environment names: with `metricsPort: null` the server opens no
 * metrics listener, so the port being taken does not stop it (cli/commands/serverOptions.ts).
 */
import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer } from '../../../server/main';
import { silentLogger } from '../../../server/http/requestLog';
import { createTestDatabase, uniqueTenantId } from '../../support/database';
import { makeServerTenant } from '../../support/builders';

const taken: Server = createServer();
afterAll(async () => {
  delete process.env.METRICS_PORT;
  await new Promise((resolve) => taken.close(resolve));
});

it('starts without a metrics listener while METRICS_PORT names a port the running portal holds', async () => {
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const address = taken.address();
  process.env.METRICS_PORT = String(typeof address === 'object' && address ? address.port : 0);
  const { db, url } = await createTestDatabase({ poolSize: 2 });
  await db.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-workbench-metrics-'));
  const start = (metricsPort: null | undefined) =>
    startServer({
      tenants: [
        makeServerTenant({
          id: uniqueTenantId('workbench'),
          name: 'Verlag Werkbank',
          hosts: ['workbench.test'],
          defaultLocale: 'de-DE',
          locales: ['de-DE'],
          features: [],
        }),
      ],
      distDir: path.join(dir, 'dist'),
      dataDir: dir,
      port: 0,
      databaseUrl: url,
      log: silentLogger,
      ...(metricsPort === null ? { metricsPort } : {}),
    });
  // The deployment's own server does take METRICS_PORT: here it is taken, and it says so.
  await expect(start(undefined)).rejects.toThrow(/EADDRINUSE/);
  const server = await start(null);
  try {
    expect(server.metricsUrl).toBeUndefined();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  } finally {
    await server.close();
  }
});
