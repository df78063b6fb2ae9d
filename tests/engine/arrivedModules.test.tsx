// @vitest-environment jsdom
/**
 * Lazy components that render at once when their module has arrived (engine/app/arrivedModules.ts):
 * React shows a Suspense boundary's content no sooner than 300 ms after its fallback, so the first
 * screen, asked for before the first render, must not show the fallback at all.
 */
import { act, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyArrived, startLoading } from '../../engine/app/arrivedModules';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const Screen = () => <h1>Orders</h1>;
const container = document.createElement('div');
document.body.append(container);
afterEach(() => {
  container.innerHTML = '';
});

/** Renders the component and says what the first commit showed and what shows at last. */
async function firstAndLast(Component: React.ComponentType) {
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <Suspense fallback={<p>Loading</p>}>
        <Component />
      </Suspense>,
    );
  });
  const first = container.textContent;
  await act(async () => new Promise((resolve) => setTimeout(resolve, 10)));
  const last = container.textContent;
  root.unmount();
  return { first, last };
}

describe('lazyArrived', () => {
  it('renders a module that has arrived in its first render, without the fallback', async () => {
    const loader = () => Promise.resolve({ default: Screen });
    startLoading(loader);
    await Promise.resolve();
    await Promise.resolve();
    const shown: string[] = [];
    const Watched = lazyArrived(loader);
    const observer = new MutationObserver(() => shown.push(container.textContent ?? ''));
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    const { last } = await firstAndLast(Watched);
    observer.disconnect();
    expect(last).toBe('Orders');
    expect(shown.filter((text) => text.includes('Loading'))).toEqual([]);
  });

  it('suspends for a module not asked for before, and shows it when it comes', async () => {
    let arrive!: () => void;
    const loader = () =>
      new Promise<{ default: typeof Screen }>((resolve) => {
        arrive = () => resolve({ default: Screen });
      });
    const root = createRoot(container);
    const Later = lazyArrived(loader);
    await act(async () => {
      root.render(
        <Suspense fallback={<p>Loading</p>}>
          <Later />
        </Suspense>,
      );
    });
    expect(container.textContent).toBe('Loading');
    await act(async () => {
      arrive();
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    expect(container.textContent).toBe('Orders');
    root.unmount();
  });

  it('asks again after a failed download, as React.lazy does', async () => {
    let calls = 0;
    const loader = () => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({ default: Screen });
    };
    startLoading(loader);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { last } = await firstAndLast(lazyArrived(loader));
    expect(calls).toBe(2);
    expect(last).toBe('Orders');
  });
});
