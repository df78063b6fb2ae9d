/**
 * The first-segment gate (server/http/firstSegmentGate.ts): a feature's router is entered only by
 * requests under its paths, and answers exactly as without the gate.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstSegmentsOf, gateByFirstSegment } from '../../../server/http/firstSegmentGate';

/** Counts the requests that enter a router (Express calls its `handle`): the gate's whole point. */
type Handle = (req: Request, res: Response, next: NextFunction) => void;

function counted(entered: string[], name: string, router: Router): Router {
  const withHandle = router as unknown as { handle: Handle };
  const handle = withHandle.handle.bind(router);
  withHandle.handle = (req, res, next) => {
    entered.push(name);
    handle(req, res, next);
  };
  return router;
}

describe('the first segments of a router', () => {
  it('are the literal first segments of its routes and mounted paths, lower-cased', () => {
    const router = Router();
    router.get('/Subscriptions/:id', (_req, res) => res.end());
    router.post(['/orders', '/orders/:id/cancel'], (_req, res) => res.end());
    router.use('/files', (_req, _res, next) => next());
    expect([...firstSegmentsOf(router)!].sort()).toEqual(['files', 'orders', 'subscriptions']);
  });

  it('include those of a router mounted at its root (a feature gate), and none where a layer takes any path', () => {
    const inner = Router();
    inner.get('/e-cards/:id', (_req, res) => res.end());
    const gated = Router();
    gated.get('/e-cards/:id', (_req, _res, next) => next());
    gated.use(inner);
    expect([...firstSegmentsOf(gated)!]).toEqual(['e-cards']);

    const withMiddleware = Router();
    withMiddleware.use((_req, _res, next) => next());
    withMiddleware.get('/a', (_req, res) => res.end());
    expect(firstSegmentsOf(withMiddleware)).toBeUndefined();
    const byParameter = Router();
    byParameter.get('/:anything/b', (_req, res) => res.end());
    expect(firstSegmentsOf(byParameter)).toBeUndefined();
    const byExpression = Router();
    byExpression.get(/^\/x/, (_req, res) => res.end());
    expect(firstSegmentsOf(byExpression)).toBeUndefined();
    expect(gateByFirstSegment(withMiddleware)).toBe(withMiddleware);
  });
});

describe('a gated API', () => {
  const entered: string[] = [];
  let base = '';
  let close: () => void;

  beforeAll(async () => {
    const subscriptions = Router();
    subscriptions.get('/subscriptions', (_req, res) => res.json({ from: 'subscriptions' }));
    subscriptions.get('/subscriptions/:id', (req, res) => res.json({ id: req.params.id }));
    const orders = Router();
    orders.get('/orders', (_req, res) => res.json({ from: 'orders' }));
    const feature = Router();
    feature.use(subscriptions);
    // A router that takes any path stays ungated and sees every request.
    const any = Router();
    any.use((_req, _res, next) => next());
    const routers = [
      counted(entered, 'orders', orders),
      counted(entered, 'subscriptions', feature),
      counted(entered, 'any', any),
    ];
    const api = Router();
    for (const router of routers) api.use(gateByFirstSegment(router));
    api.use((_req, res) => res.status(404).json({ error: 'not_found' }));
    const app = express();
    app.use('/api', api);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('enters only the router whose paths the request is under, and answers as without the gate', async () => {
    entered.length = 0;
    expect(await (await fetch(`${base}/subscriptions/42`)).json()).toEqual({ id: '42' });
    expect(entered).toEqual(['subscriptions']);
    entered.length = 0;
    // Express matches paths case-insensitively; so does the gate.
    expect(await (await fetch(`${base}/ORDERS`)).json()).toEqual({ from: 'orders' });
    expect(entered).toEqual(['orders']);
    entered.length = 0;
    const missing = await fetch(`${base}/nothing-here?x=1`);
    expect(missing.status).toBe(404);
    expect(entered).toEqual(['any']);
  });
});
