/**
 * One session per tenant, shared by the tabs of one browser:
 *
 * - each tab keeps its copy in session storage under a key that names the tenant, so tenants that
 *   share an origin (`/t/<id>/` paths, the /preview frames) never read, send or overwrite each
 *   other's token;
 * - a tab that opens without a copy (a new tab, a middle-clicked "Manage") asks the tenant's other
 *   tabs over a BroadcastChannel named after the tenant, and one that holds the session hands it
 *   over; it waits only when a non-secret hint in local storage says some tab may hold one;
 * - a sign-in in one tab is handed to the others, and a log-out or an expiry ends it in all of them.
 *
 * The token itself is never written to local storage: it lives as long as a tab of the tenant is
 * open, not on disk after the browser closes (docs/architecture.md "Sessions" says why). Storage and channel
 * failures are ignored (portal-core.md §8): the tab then behaves as one without a session.
 */
import type { AuthState, LoginResponse } from './authState';
import { authStateKey, sessionHintKey } from '../domain/sessionStorageKeys';

export { sessionHintKey };

/** Read once by the login page that follows a log-out after a timeout. */
export const timedOutKey = (tenantId: string) => `portal.sessionTimedOut.${tenantId}`;
/** Where older versions kept one token for whichever tenant signed in last; removed on sight. */
export const LEGACY_AUTH_STATE_KEY = 'portal.authState';
export const sessionChannelName = (tenantId: string) => `portal.session.${tenantId}`;

/** How long a new tab waits for another tab to hand over the session (same browser, so quick). */
export const HANDOVER_WAIT_MS = 400;

export type SessionMessage =
  | { type: 'ask'; nonce: string }
  | { type: 'hand-over'; nonce: string; session: LoginResponse }
  | { type: 'signed-in'; session: LoginResponse }
  | { type: 'ended'; timedOut: boolean };

/** The part of BroadcastChannel used here, so tests can pass their own. */
export interface SessionChannel {
  postMessage(message: SessionMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<SessionMessage>) => void): void;
  close(): void;
}

/** What another tab did to the session, for the screen to follow. */
export type RemoteSessionChange =
  { type: 'signed-in'; session: LoginResponse } | { type: 'ended'; timedOut: boolean };

export interface TenantSessionOptions {
  tenantId: string;
  /** This tab's copy: sessionStorage in the browser. */
  storage?: Storage;
  /** The hint only: localStorage in the browser. */
  hints?: Storage;
  channel?: SessionChannel;
  handoverWaitMs?: number;
}

export type TenantSession = ReturnType<typeof createTenantSession>;

function isSession(value: unknown): value is LoginResponse {
  const session = value as Partial<LoginResponse> | null;
  return Boolean(
    session &&
    typeof session === 'object' &&
    session.user &&
    typeof session.accessToken === 'string' &&
    session.accessToken &&
    session.loginSource,
  );
}

/** The fields of a session that are kept and handed over: a partial one's subscription too (§4 scope). */
export function sessionOf(session: LoginResponse): LoginResponse {
  const kept: LoginResponse = {
    user: session.user,
    accessToken: session.accessToken,
    loginSource: session.loginSource,
  };
  return session.subscriptionId ? { ...kept, subscriptionId: session.subscriptionId } : kept;
}

/** The same sign-in with the same account details: an e-mail change keeps the token but not the address. */
function sameSession(a: LoginResponse, b: LoginResponse | undefined): boolean {
  return (
    b !== undefined &&
    a.accessToken === b.accessToken &&
    a.loginSource === b.loginSource &&
    a.subscriptionId === b.subscriptionId &&
    a.user.id === b.user.id &&
    a.user.email === b.user.email
  );
}

function quietly<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    // §8: storage failures are ignored.
    return undefined;
  }
}

export function openSessionChannel(tenantId: string): SessionChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  return quietly(() => new BroadcastChannel(sessionChannelName(tenantId)) as unknown as SessionChannel);
}

export function createTenantSession(options: TenantSessionOptions) {
  const { tenantId, storage, hints, channel } = options;
  const waitMs = options.handoverWaitMs ?? HANDOVER_WAIT_MS;
  const key = authStateKey(tenantId);
  let current: LoginResponse | undefined;
  const listeners = new Set<(change: RemoteSessionChange) => void>();
  const pendingAsks = new Map<string, (session: LoginResponse) => void>();

  function save(session: LoginResponse) {
    current = session;
    quietly(() => storage?.setItem(key, JSON.stringify(session)));
    quietly(() => hints?.setItem(sessionHintKey(tenantId), '1'));
    // A sign-in after a timeout (an embedded portal signs in again without a page load) ends its
    // notice: a later log-out is no expiry.
    quietly(() => storage?.removeItem(timedOutKey(tenantId)));
  }

  function forget(timedOut: boolean) {
    current = undefined;
    quietly(() => storage?.removeItem(key));
    quietly(() => hints?.removeItem(sessionHintKey(tenantId)));
    if (timedOut) quietly(() => storage?.setItem(timedOutKey(tenantId), '1'));
    else quietly(() => storage?.removeItem(timedOutKey(tenantId)));
  }

  function post(message: SessionMessage) {
    quietly(() => channel?.postMessage(message));
  }

  channel?.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object') return;
    if (message.type === 'ask') {
      if (current) post({ type: 'hand-over', nonce: message.nonce, session: current });
    } else if (message.type === 'hand-over') {
      if (isSession(message.session)) pendingAsks.get(message.nonce)?.(message.session);
    } else if (message.type === 'signed-in') {
      if (!isSession(message.session) || sameSession(message.session, current)) return;
      save(message.session);
      for (const listener of listeners) listener({ type: 'signed-in', session: message.session });
    } else if (message.type === 'ended') {
      const hadSession = Boolean(current);
      forget(Boolean(message.timedOut) && hadSession);
      if (hadSession)
        for (const listener of listeners) listener({ type: 'ended', timedOut: Boolean(message.timedOut) });
    }
  });

  function askOtherTabs(): Promise<LoginResponse | undefined> {
    if (!channel) return Promise.resolve(undefined);
    const nonce = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pendingAsks.delete(nonce);
        resolve(undefined);
      }, waitMs);
      pendingAsks.set(nonce, (session) => {
        clearTimeout(timer);
        pendingAsks.delete(nonce);
        resolve(session);
      });
      post({ type: 'ask', nonce });
    });
  }

  return {
    /** The tab's own copy, else one handed over by another tab of the tenant, else none. */
    async restore(): Promise<AuthState> {
      quietly(() => storage?.removeItem(LEGACY_AUTH_STATE_KEY));
      const raw = quietly(() => storage?.getItem(key));
      const saved = raw ? quietly(() => JSON.parse(raw) as unknown) : undefined;
      if (isSession(saved)) {
        current = saved;
        return { ...saved, sessionHasTimedOut: false };
      }
      const timedOut = quietly(() => storage?.getItem(timedOutKey(tenantId))) === '1';
      quietly(() => storage?.removeItem(timedOutKey(tenantId)));
      if (quietly(() => hints?.getItem(sessionHintKey(tenantId))) === '1') {
        const handed = await askOtherTabs();
        if (handed) {
          save(handed);
          return { ...handed, sessionHasTimedOut: false };
        }
        // No tab answered: the tabs that held it were closed without a log-out.
        quietly(() => hints?.removeItem(sessionHintKey(tenantId)));
      }
      return { sessionHasTimedOut: timedOut };
    },

    /**
     * A sign-in in this tab, or a change of its account's details (a confirmed new e-mail address):
     * kept for reloads and handed to the tenant's other tabs.
     */
    signedIn(session: LoginResponse): void {
      if (!isSession(session) || sameSession(session, current)) return;
      save(session);
      post({ type: 'signed-in', session: sessionOf(session) });
    },

    /** A log-out or expiry in this tab: ends the session here and in every other tab of the tenant. */
    ended(options: { timedOut?: boolean } = {}): void {
      forget(Boolean(options.timedOut));
      post({ type: 'ended', timedOut: Boolean(options.timedOut) });
    },

    current(): LoginResponse | undefined {
      return current;
    },

    onRemoteChange(listener: (change: RemoteSessionChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    close(): void {
      quietly(() => channel?.close());
    },
  };
}
