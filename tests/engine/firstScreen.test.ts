/**
 * What the boot asks for before the first render (engine/app/router.tsx startFirstScreen), by
 * AccessGate's rules (portal-core.md §2 "Access rules"): the orders screen for a tab with a session,
 * the way to the login without one (not in an embedded portal, whose page says how to sign in),
 * the login screen on the login page.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const asked = vi.hoisted(() => [] as unknown[]);
vi.mock('../../engine/app/arrivedModules', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../engine/app/arrivedModules')>()),
  // Recorded and not run: the way to the login runs, as it asks for the login screen itself.
  startLoading: (loader: () => Promise<unknown>) => {
    asked.push(loader);
    if (loader.name === 'wayToLogin') void loader().catch(() => undefined);
  },
}));

const { startFirstScreen } = await import('../../engine/app/router');
const { FEATURES } = await import('../../engine/features');
const { ROUTES } = await import('../../engine/domain/routeRefs');
const screenOf = (ref: unknown) =>
  FEATURES.flatMap((feature) => feature.routes).find((route) => route.ref === ref)!.screen;
const orders = screenOf(ROUTES.orders);
const login = screenOf(ROUTES.login);

beforeEach(() => {
  asked.length = 0;
});

describe('the first screen asked for before the first render', () => {
  it('asks for the orders screen on /orders and / with a session', () => {
    for (const path of ['/orders', '/', '/Orders/']) {
      asked.length = 0;
      startFirstScreen(path, '', true, false);
      expect(asked, path).toEqual([orders]);
    }
  });

  it('asks for the way to the login without a session, the login screen among it', () => {
    startFirstScreen('/orders', '', false, false);
    expect(asked.map((loader) => (loader as () => unknown).name)).toContain('wayToLogin');
    expect(asked).toContain(login);
    expect(asked).not.toContain(orders);
    // A sign-in link's token goes through the login page in an embedded portal too.
    asked.length = 0;
    startFirstScreen('/orders', '?p=token', false, true);
    expect(asked).toContain(login);
  });

  it('asks for nothing in an embedded portal without a session: its page says how to sign in', () => {
    startFirstScreen('/orders', '', false, true);
    expect(asked).toEqual([]);
  });

  it('asks for the login screen on /login without a session, and nothing elsewhere', () => {
    startFirstScreen('/login', '', false, false);
    expect(asked).toEqual([login]);
    asked.length = 0;
    startFirstScreen('/login', '', true, false);
    startFirstScreen('/faq', '', true, false);
    startFirstScreen('/subscriptions/123', '', true, false);
    expect(asked).toEqual([]);
  });
});
