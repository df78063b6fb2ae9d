import type { KeptEncoding } from '../http/compression';

/**
 * Answers of GET /subscriptions kept in memory, so the API keeps up under load. Building
 * the list is the most expensive read of the portal: one query over six tables, a JSON row per
 * subscription parsed, shaped and written again. A user's list changes only when the tenant's
 * subscription data does (every change raises the version of migration 015, in the same
 * transaction) or the day does (the next issue), and the session query reads both.
 *
 * Nothing here is needed by another instance: each keeps its own answers and checks them against
 * the version in the database on every request, so a change made anywhere is seen at once
 * everywhere (docs/architecture.md "Running more than one instance").
 */
export interface SubscriptionListCache {
  /** The answer made for this user and language under this data version, if it is still kept. */
  get(key: SubscriptionListKey): CachedAnswer | undefined;
  set(key: SubscriptionListKey, answer: CachedAnswer): void;
}

/**
 * The JSON as sent, its ETag, and the JSON compressed in each encoding a client has asked for
 * (made once, not on every send: compressing the list cost more than the rest of a kept read).
 * The byte budget counts the JSON; each compressed copy is about a tenth of it.
 */
export interface CachedAnswer {
  body: Buffer;
  etag: string | undefined;
  encoded: Partial<Record<KeptEncoding, Buffer>>;
}

export interface SubscriptionListKey {
  tenantId: string;
  userId: string;
  locale: string;
  /** `version:day` from the session query (AuthenticatedUser.subscriptionDataVersion). */
  dataVersion: string;
}

/**
 * At most this many users' answers and this many bytes of them (an answer is about 4 KB a
 * subscription; a company's list can be large): the least recently used go first.
 */
const DEFAULT_LIMIT = 1000;
const DEFAULT_BYTES = 32 * 1024 * 1024;

export function createSubscriptionListCache(
  limit = DEFAULT_LIMIT,
  maxBytes = DEFAULT_BYTES,
): SubscriptionListCache {
  // One entry per user and language: a newer version replaces the older answer at once. A Map
  // keeps insertion order, so re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, { dataVersion: string; answer: CachedAnswer }>();
  let bytes = 0;
  const drop = (name: string) => {
    const entry = entries.get(name);
    if (entry) bytes -= entry.answer.body.length;
    entries.delete(name);
  };
  const slot = (key: SubscriptionListKey) => `${key.tenantId}\n${key.userId}\n${key.locale}`;
  return {
    get(key) {
      const name = slot(key);
      const entry = entries.get(name);
      if (!entry || entry.dataVersion !== key.dataVersion) return undefined;
      entries.delete(name);
      entries.set(name, entry);
      return entry.answer;
    },
    set(key, answer) {
      const name = slot(key);
      drop(name);
      // One answer larger than a quarter of the budget is built each time rather than kept.
      if (answer.body.length > maxBytes / 4) return;
      entries.set(name, { dataVersion: key.dataVersion, answer });
      bytes += answer.body.length;
      while (entries.size > limit || bytes > maxBytes) drop(entries.keys().next().value!);
    },
  };
}
