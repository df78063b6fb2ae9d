// @vitest-environment jsdom
/**
 * Host-frame messages (account-flows.md §2) go to the framing page's own origin when the browser
 * tells it and it is a configured one, so no other configured origin draws the browser's warning;
 * never to an origin the tenant did not configure, and to each configured one when the parent's
 * origin is unknown.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifyHostFrame } from '../../engine/core/hostFrame';

const ORIGINS = ['https://www.verlag.example', 'https://staging.verlag.example'];

function framedBy(ancestor: string | undefined) {
  const postMessage = vi.fn();
  vi.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage } as unknown as Window);
  Object.defineProperty(window.location, 'ancestorOrigins', {
    configurable: true,
    value: ancestor === undefined ? undefined : Object.assign([ancestor], { contains: () => false }),
  });
  return postMessage;
}

afterEach(() => {
  vi.restoreAllMocks();
  delete (window.location as { ancestorOrigins?: unknown }).ancestorOrigins;
});

describe('messages to the host page', () => {
  it('go to the parent’s origin alone when it is a configured one', () => {
    const postMessage = framedBy('https://staging.verlag.example');
    notifyHostFrame('sessionTimedOut', ORIGINS);
    expect(postMessage.mock.calls).toEqual([['sessionTimedOut', 'https://staging.verlag.example']]);
  });

  it('go to each configured origin when the parent’s is unknown or not one of them', () => {
    for (const ancestor of [undefined, 'https://evil.example']) {
      const postMessage = framedBy(ancestor);
      notifyHostFrame('accountDeleted', ORIGINS);
      // The browser delivers a message only to a parent of its target origin: none of evil's.
      expect(postMessage.mock.calls.map(([, origin]) => origin)).toEqual(ORIGINS);
      vi.restoreAllMocks();
    }
  });
});
