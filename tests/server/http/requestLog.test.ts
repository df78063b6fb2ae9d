import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { requestLog } from '../../../server/http/requestLog';

describe('request log', () => {
  it('records a request whose client gave up before the answer, with its duration', async () => {
    const entries: Array<Record<string, unknown>> = [];
    const app = express();
    app.use(requestLog((entry) => entries.push(entry)));
    // The client gives up 50 ms after the handler has the request, long before it would answer.
    let arrived!: () => void;
    const handlerHasIt = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/slow', (_req, res) => {
      arrived();
      setTimeout(() => res.headersSent || res.end('late'), 2000);
    });
    app.get('/fast', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;

    await fetch(`http://127.0.0.1:${port}/fast`);
    const req = http.get(`http://127.0.0.1:${port}/slow?token=secret`);
    req.on('error', () => undefined);
    await handlerHasIt;
    await new Promise((resolve) => setTimeout(resolve, 50));
    req.destroy();
    const deadline = Date.now() + 5000;
    while (!entries.some((e) => e.path === '/slow') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    server.closeAllConnections();
    server.close();

    expect(entries.find((e) => e.path === '/fast')).toMatchObject({ status: 200 });
    const aborted = entries.filter((e) => e.path === '/slow');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ status: 499, aborted: true });
    // Until the client gave up (at least the 50 ms it waited once the handler had the request), not
    // until the handler would have answered (2 s).
    expect(aborted[0].ms).toBeGreaterThanOrEqual(45);
    expect(aborted[0].ms).toBeLessThan(2000);
    expect(JSON.stringify(entries)).not.toContain('secret');
  });
});
