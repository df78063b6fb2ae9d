import { afterEach, describe, expect, it } from 'vitest';
import type { LoginResponse } from '../../engine/core/authState';
import {
  createTenantSession,
  LEGACY_AUTH_STATE_KEY,
  sessionChannelName,
  sessionHintKey,
  timedOutKey,
  type RemoteSessionChange,
  type SessionChannel,
  type TenantSession,
} from '../../engine/core/tenantSession';
import { authStateKey } from '../../engine/domain/sessionStorageKeys';

/** An in-memory Storage, as one tab's sessionStorage or the browser's localStorage. */
function makeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

function makeLogin(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return {
    user: { id: 'u1', email: 'anna@technikwelt.example' },
    accessToken: 'token-1',
    loginSource: 'email',
    ...overrides,
  };
}

/** One browser: shared local storage, one session storage and channel per tab. */
function makeBrowser() {
  const hints = makeStorage();
  const opened: TenantSession[] = [];
  return {
    hints,
    tab(tenantId: string, storage: Storage = makeStorage()) {
      const channel = new BroadcastChannel(sessionChannelName(tenantId)) as unknown as SessionChannel;
      const session = createTenantSession({ tenantId, storage, hints, channel, handoverWaitMs: 200 });
      opened.push(session);
      const changes: RemoteSessionChange[] = [];
      session.onRemoteChange((change) => changes.push(change));
      return { session, storage, changes };
    },
    close: () => opened.forEach((session) => session.close()),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

let browser: ReturnType<typeof makeBrowser>;
afterEach(() => browser?.close());

describe('one session per tenant', () => {
  it('keeps every kind of sign-in for a reload, under a key that names the tenant', async () => {
    browser = makeBrowser();
    const storage = makeStorage();
    const first = browser.tab('northern-review', storage);
    await first.session.restore();
    first.session.signedIn(makeLogin({ loginSource: 'email' }));
    expect(storage.getItem(authStateKey('northern-review'))).toContain('token-1');

    const reloaded = browser.tab('northern-review', storage);
    expect(await reloaded.session.restore()).toEqual({
      ...makeLogin({ loginSource: 'email' }),
      sessionHasTimedOut: false,
    });
  });

  it("never gives one tenant's page the token of another tenant signed in in the same tab", async () => {
    browser = makeBrowser();
    const storage = makeStorage();
    const technikwelt = browser.tab('technikwelt', storage);
    await technikwelt.session.restore();
    technikwelt.session.signedIn(makeLogin());

    const stadtkurier = browser.tab('stadtkurier', storage);
    expect(await stadtkurier.session.restore()).toEqual({ sessionHasTimedOut: false });
    expect(stadtkurier.session.current()).toBeUndefined();
  });

  it('lets a sign-in in one preview frame leave the other tenants signed in', async () => {
    browser = makeBrowser();
    const storage = makeStorage();
    const review = browser.tab('northern-review', storage);
    const kurier = browser.tab('stadtkurier', storage);
    await review.session.restore();
    await kurier.session.restore();
    review.session.signedIn(makeLogin({ accessToken: 'review-token' }));
    kurier.session.signedIn(makeLogin({ accessToken: 'kurier-token' }));
    await settle();
    expect(JSON.parse(storage.getItem(authStateKey('northern-review'))!).accessToken).toBe('review-token');
    expect(review.changes).toEqual([]);
  });

  it('hands the session to a new tab of the same tenant', async () => {
    browser = makeBrowser();
    const open = browser.tab('technikwelt');
    await open.session.restore();
    open.session.signedIn(makeLogin());

    const newTab = browser.tab('technikwelt');
    expect(await newTab.session.restore()).toEqual({ ...makeLogin(), sessionHasTimedOut: false });
    expect(newTab.storage.getItem(authStateKey('technikwelt'))).toContain('token-1');
  });

  it('keeps a "logged in only" session scoped to its subscription across a reload, a new tab and a sign-in elsewhere (portal-core.md §4)', async () => {
    browser = makeBrowser();
    const storage = makeStorage();
    const partial = makeLogin({ loginSource: 'order-number', subscriptionId: '4279710632-1' });
    const open = browser.tab('technikwelt', storage);
    await open.session.restore();
    const watching = browser.tab('technikwelt');
    await watching.session.restore();
    open.session.signedIn(partial);
    await settle();
    expect(watching.changes).toEqual([{ type: 'signed-in', session: partial }]);

    expect(await browser.tab('technikwelt', storage).session.restore()).toEqual({
      ...partial,
      sessionHasTimedOut: false,
    });
    expect(await browser.tab('technikwelt').session.restore()).toEqual({
      ...partial,
      sessionHasTimedOut: false,
    });
  });

  it('never writes the token to the storage every tab shares, only that a session may be open', async () => {
    browser = makeBrowser();
    const open = browser.tab('technikwelt');
    await open.session.restore();
    open.session.signedIn(makeLogin({ accessToken: 'secret-token' }));
    const shared = Array.from({ length: browser.hints.length }, (_, i) =>
      browser.hints.getItem(browser.hints.key(i)!),
    );
    expect(shared.join()).not.toContain('secret-token');
    expect(browser.hints.getItem(sessionHintKey('technikwelt'))).toBe('1');
  });

  it('gives a new tab no session when the tabs that held it were closed, and forgets the hint', async () => {
    browser = makeBrowser();
    browser.hints.setItem(sessionHintKey('technikwelt'), '1');
    const newTab = browser.tab('technikwelt');
    expect(await newTab.session.restore()).toEqual({ sessionHasTimedOut: false });
    expect(browser.hints.getItem(sessionHintKey('technikwelt'))).toBeNull();
  });

  it("does not hand one tenant's session to a new tab of another tenant", async () => {
    browser = makeBrowser();
    const open = browser.tab('technikwelt');
    await open.session.restore();
    open.session.signedIn(makeLogin());
    browser.hints.setItem(sessionHintKey('stadtkurier'), '1');
    const other = browser.tab('stadtkurier');
    expect(await other.session.restore()).toEqual({ sessionHasTimedOut: false });
  });

  it('ends the session in every tab of the tenant at log-out', async () => {
    browser = makeBrowser();
    const first = browser.tab('technikwelt');
    await first.session.restore();
    first.session.signedIn(makeLogin());
    const second = browser.tab('technikwelt');
    await second.session.restore();
    const other = browser.tab('stadtkurier');
    await other.session.restore();
    other.session.signedIn(makeLogin({ accessToken: 'kurier-token' }));

    first.session.ended();
    await settle();
    expect(second.changes).toEqual([{ type: 'ended', timedOut: false }]);
    expect(second.storage.getItem(authStateKey('technikwelt'))).toBeNull();
    expect(second.session.current()).toBeUndefined();
    expect(browser.hints.getItem(sessionHintKey('technikwelt'))).toBeNull();
    expect(other.changes).toEqual([]);
    expect(other.session.current()?.accessToken).toBe('kurier-token');
  });

  it('ends it in every tab at expiry, and each tab shows the session-expired text once', async () => {
    browser = makeBrowser();
    const first = browser.tab('technikwelt');
    await first.session.restore();
    first.session.signedIn(makeLogin());
    const second = browser.tab('technikwelt');
    await second.session.restore();

    first.session.ended({ timedOut: true });
    await settle();
    expect(second.changes).toEqual([{ type: 'ended', timedOut: true }]);
    const afterReload = browser.tab('technikwelt', second.storage);
    expect(await afterReload.session.restore()).toEqual({ sessionHasTimedOut: true });
    expect(second.storage.getItem(timedOutKey('technikwelt'))).toBeNull();
    expect(await browser.tab('technikwelt', second.storage).session.restore()).toEqual({
      sessionHasTimedOut: false,
    });
  });

  it('forgets an expiry once signed in again without a page load (an embedded portal), so a log-out is no expiry', async () => {
    browser = makeBrowser();
    const tab = browser.tab('technikwelt');
    await tab.session.restore();
    tab.session.signedIn(makeLogin());
    tab.session.ended({ timedOut: true });
    tab.session.signedIn(makeLogin({ accessToken: 'token-after-the-timeout' }));
    tab.session.ended({ timedOut: false });
    // The log-out's page load to /login.
    expect(await browser.tab('technikwelt', tab.storage).session.restore()).toEqual({
      sessionHasTimedOut: false,
    });
  });

  it('hands a sign-in in one tab to the tenant’s other open tabs', async () => {
    browser = makeBrowser();
    const first = browser.tab('technikwelt');
    const second = browser.tab('technikwelt');
    await first.session.restore();
    await second.session.restore();
    first.session.signedIn(makeLogin());
    await settle();
    expect(second.changes).toEqual([{ type: 'signed-in', session: makeLogin() }]);
    expect(second.session.current()).toEqual(makeLogin());
  });

  it('keeps a confirmed new e-mail address for a reload and the other tabs, though the token stays the same', async () => {
    browser = makeBrowser();
    const first = browser.tab('northern-review');
    const second = browser.tab('northern-review');
    await first.session.restore();
    await second.session.restore();
    first.session.signedIn(makeLogin());
    await settle();
    const changed = makeLogin({ user: { id: 'u1', email: 'anna.new@technikwelt.example' } });
    first.session.signedIn(changed);
    await settle();
    expect(second.session.current()).toEqual(changed);
    expect(second.changes.at(-1)).toEqual({ type: 'signed-in', session: changed });
    const afterReload = browser.tab('northern-review', first.storage);
    expect(await afterReload.session.restore()).toEqual({ ...changed, sessionHasTimedOut: false });
  });

  it('drops the single key of earlier versions, which held whichever tenant signed in last', async () => {
    browser = makeBrowser();
    const storage = makeStorage();
    storage.setItem(LEGACY_AUTH_STATE_KEY, JSON.stringify(makeLogin()));
    expect(await browser.tab('stadtkurier', storage).session.restore()).toEqual({
      sessionHasTimedOut: false,
    });
    expect(storage.getItem(LEGACY_AUTH_STATE_KEY)).toBeNull();
  });

  it('ignores storage that throws (portal-core.md §8)', async () => {
    const broken = makeStorage();
    broken.getItem = () => {
      throw new Error('denied');
    };
    broken.setItem = broken.getItem;
    const session = createTenantSession({ tenantId: 'technikwelt', storage: broken, hints: broken });
    expect(await session.restore()).toEqual({ sessionHasTimedOut: false });
    session.signedIn(makeLogin());
    expect(session.current()).toEqual(makeLogin());
  });
});
