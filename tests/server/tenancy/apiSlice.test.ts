import express, { Router, type ErrorRequestHandler } from 'express';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../server/http/errors';
import { gatedSlice } from '../../../server/tenancy/apiSlice';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** An API of one gated slice (two routes of the cancellation feature, switched by its flag) and one route of nobody's. */
async function api(features: string[]) {
  const slice = Router();
  slice.get('/subscriptions/:id/cancellation-reasons', (_req, res) => void res.json({ served: 'reasons' }));
  slice.post('/login/cancellation', (_req, res) => void res.json({ served: 'login' }));
  const other = Router();
  other.get('/subscriptions/:id', (_req, res) => void res.json({ served: 'other' }));
  const app = express();
  app.use((_req, res, next) => {
    res.locals.tenantContext = { tenant: { id: 'demo', features } as unknown as ServerTenant, basePath: '/' };
    next();
  });
  app.use(gatedSlice({ feature: 'cancellation', router: slice }));
  app.use(other);
  app.use((_req, res) => void res.status(404).json({ error: { code: 'not_found' } }));
  const answerError: ErrorRequestHandler = (error, _req, res, _next) => {
    const status = error instanceof HttpError ? error.status : 500;
    res.status(status).json({ error: { code: error instanceof HttpError ? error.code : 'internal' } });
  };
  app.use(answerError);
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (method: string, path: string) => {
    const answer = await fetch(`${base}${path}`, { method });
    return { status: answer.status, body: await answer.json() };
  };
}

describe('a slice gated where it is mounted (server/tenancy/apiSlice.ts)', () => {
  it("serves the slice's routes while the tenant has its feature on", async () => {
    const call = await api(['cancellation']);
    expect(await call('GET', '/subscriptions/1/cancellation-reasons')).toEqual({
      status: 200,
      body: { served: 'reasons' },
    });
    expect((await call('POST', '/login/cancellation')).body).toEqual({ served: 'login' });
  });

  it("refuses each of the slice's routes with 403 feature_disabled while the feature is off (portal-core.md §6)", async () => {
    const call = await api([]);
    for (const [method, path] of [
      ['GET', '/subscriptions/1/cancellation-reasons'],
      ['POST', '/login/cancellation'],
    ]) {
      expect(await call(method, path), `${method} ${path}`).toEqual({
        status: 403,
        body: { error: { code: 'feature_disabled' } },
      });
    }
  });

  it('fails when the API is built for a slice of a feature the registry does not know, naming it', () => {
    expect(() => gatedSlice({ feature: 'cancelation', router: Router() })).toThrow(/"cancelation"/);
    // login has no flag: nothing would ever switch its slice off.
    expect(() => gatedSlice({ feature: 'login', router: Router() })).toThrow(/no flag/);
  });

  it('lets every other request pass on: another slice, another method, an unknown path', async () => {
    const call = await api([]);
    expect((await call('GET', '/subscriptions/1')).body).toEqual({ served: 'other' });
    expect((await call('GET', '/login/cancellation')).status).toBe(404);
    expect((await call('GET', '/subscriptions/1/nothing')).status).toBe(404);
  });
});
