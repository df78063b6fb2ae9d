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
    app.get('/slow', (_req, res) => void setTimeout(() => res.headersSent || res.end('late'), 400));
    app.get('/fast', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;

    await fetch(`http://127.0.0.1:${port}/fast`);
    await new Promise<void>((resolve) => {
      const req = http.get(`http://127.0.0.1:${port}/slow?token=secret`);
      req.on('error', () => resolve());
      setTimeout(() => req.destroy(), 100);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    server.close();

    expect(entries.find((e) => e.path === '/fast')).toMatchObject({ status: 200 });
    const aborted = entries.filter((e) => e.path === '/slow');
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ status: 499, aborted: true });
    // Until the client gave up (100 ms after it asked; the server saw the request a little later on
    // a busy machine), not until the handler would have answered (400 ms).
    expect(aborted[0].ms).toBeGreaterThanOrEqual(30);
    expect(aborted[0].ms).toBeLessThan(400);
    expect(JSON.stringify(entries)).not.toContain('secret');
  });
});
