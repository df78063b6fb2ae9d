import type { Queryable } from '../db/database';
import { decrementWindow, incrementWindow, readWindow, type CountedPlace } from '../store/rateLimitStore';
import { HttpError } from '../http/errors';
import { waitInEnglish } from '../../engine/domain/retryAfter';
import { mailboxOf } from '../../engine/domain/fieldRules';
import { hashToken } from './tokens';
import { signInLimitsHit, tenantLabel } from '../metrics/registry';

/** Counts a sign-in limit's 429 (portal_sign_in_limits_hit_total, docs/going-live.md "Operations"). */
function limitHit(
  tenantId: string,
  limit: 'attempts' | 'password_day' | 'password_backoff' | 'order_number_day' | 'order_number_backoff',
): void {
  signInLimitsHit.inc({ tenant: tenantLabel(tenantId), limit });
}

async function countingHits(tenantId: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof HttpError && error.status === 429) limitHit(tenantId, 'attempts');
    throw error;
  }
}

export interface RateLimitRule {
  /** What is limited, e.g. `login:email:anna@example.com` or `login:client:203.0.113.7`. */
  bucket: string;
  /** Window length in seconds. */
  windowSeconds: number;
  /** Most attempts per window. */
  limit: number;
}

/**
 * Longest bucket stored as written. Longer ones (a 6,000-character header or address a client
 * may send) are stored as their first characters plus a SHA-256 of the whole, so the key of the
 * rate_limits primary key stays small whatever a client sends, and distinct inputs stay distinct.
 */
export const MAX_BUCKET_LENGTH = 128;

export function bucketKey(bucket: string): string {
  if (bucket.length <= MAX_BUCKET_LENGTH) return bucket;
  return `${bucket.slice(0, 48)}#sha256:${hashToken(bucket)}`;
}

function windowOf(windowSeconds: number, now: Date): { start: Date; ms: number } {
  const ms = windowSeconds * 1000;
  return { start: new Date(Math.floor(now.getTime() / ms) * ms), ms };
}

/**
 * Every 429 says when to try again: `details.retryAfterSeconds`, which the error
 * middleware also sends as Retry-After, and the wait in the message; the screens say it in their
 * language (engine/core/tooManyText.ts).
 */
export function tooMany(retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(
    429,
    'rate_limited',
    `Too many attempts. Please try again in ${waitInEnglish(seconds)}.`,
    { retryAfterSeconds: seconds },
  );
}

/** Counts one hit in the rule's current window and returns the count. */
export async function countHit(
  db: Queryable,
  tenantId: string,
  rule: Pick<RateLimitRule, 'bucket' | 'windowSeconds'>,
  now: Date,
): Promise<number> {
  return incrementWindow(db, tenantId, bucketKey(rule.bucket), windowOf(rule.windowSeconds, now).start, now);
}

/** Hits of the rule's current window and when the last one was, without counting. */
export async function peekHits(
  db: Queryable,
  tenantId: string,
  rule: Pick<RateLimitRule, 'bucket' | 'windowSeconds'>,
  now: Date,
): Promise<{ hits: number; lastHitAt?: Date }> {
  return readWindow(db, tenantId, bucketKey(rule.bucket), windowOf(rule.windowSeconds, now).start);
}

/**
 * Fixed-window counters in the database (table rate_limits), so every server instance shares
 * them (docs/architecture.md "Data and the server": no state in memory that another instance would need). One
 * upsert per rule.
 */
export async function consumeRateLimit(
  db: Queryable,
  tenantId: string,
  rule: RateLimitRule,
  now: Date,
): Promise<CountedPlace> {
  const hits = await countHit(db, tenantId, rule, now);
  const window = windowOf(rule.windowSeconds, now);
  if (hits > rule.limit)
    throw tooMany(Math.ceil((window.start.getTime() + window.ms - now.getTime()) / 1000));
  return { bucket: bucketKey(rule.bucket), windowStart: window.start.toISOString() };
}

/** Gives back the hit an attempt took at `now` (same window), once the attempt turned out a success. */
export async function refundHit(
  db: Queryable,
  tenantId: string,
  rule: Pick<RateLimitRule, 'bucket' | 'windowSeconds'>,
  now: Date,
): Promise<void> {
  await decrementWindow(db, tenantId, bucketKey(rule.bucket), windowOf(rule.windowSeconds, now).start);
}

/**
 * Runs an attempt inside budgets that count failures, not successes (five successful
 * sign-ins must not lock anyone out). Each attempt takes its place in every budget before it runs
 * — so a burst of parallel guesses is capped as before — and a success gives the places back; a
 * refusal keeps them, unless `countsAsFailure` says it proves nothing (a malformed form, say).
 */
export async function countingFailures<T>(
  db: Queryable,
  tenantId: string,
  rules: readonly RateLimitRule[],
  now: Date,
  attempt: () => Promise<T>,
  countsAsFailure: (error: unknown) => boolean = () => true,
): Promise<T> {
  const taken: RateLimitRule[] = [];
  const giveBack = async () => {
    for (const rule of taken) await refundHit(db, tenantId, rule, now);
  };
  for (const rule of rules) {
    await consumeRateLimit(db, tenantId, rule, now);
    taken.push(rule);
  }
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!countsAsFailure(error)) await giveBack();
    throw error;
  }
  await giveBack();
  return result;
}

/**
 * countingFailures for an attempt that spends a secret nobody guesses (a mailed link's token of
 * 256 bits): over the budget the secret is still tried, and only its failure answers the budget's
 * 429. A link its address's owner opens then works after someone else's failures from the same
 * client address (a shared NAT, an IPv6 /64), as a valid operator key works over its 429 (limits
 * count failures, not honest use; docs/architecture.md); a guess learns nothing it could not learn
 * under the budget.
 */
export async function countingFailuresOfSecret<T>(
  db: Queryable,
  tenantId: string,
  rules: readonly RateLimitRule[],
  now: Date,
  attempt: () => Promise<T>,
  countsAsFailure: (error: unknown) => boolean = () => true,
): Promise<T> {
  let refusal: unknown;
  for (const rule of rules) {
    try {
      await consumeRateLimit(db, tenantId, rule, now);
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 429)) throw error;
      refusal ??= error;
    }
  }
  const giveBack = async () => {
    for (const rule of rules) await refundHit(db, tenantId, rule, now);
  };
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    // What proves nothing about the secret (a form mistake beside a valid token, a voucher pool
    // run dry) is answered as itself and counts nothing, over the budget too.
    if (!countsAsFailure(error)) {
      await giveBack();
      throw error;
    }
    throw refusal ?? error;
  }
  await giveBack();
  return result;
}

/**
 * A mailed link's token spent by an anonymous client (a widget's confirmation link), in the
 * client's budget of sign-in tokens (signInRules 'token', which the sign-in links share): only a
 * token that is not found (404) counts; over the budget a valid one is still tried
 * (countingFailuresOfSecret).
 */
export function spendingLinkToken<T>(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  client: string,
  now: Date,
  attempt: () => Promise<T>,
): Promise<T> {
  return countingFailuresOfSecret(
    db,
    tenantId,
    signInRules(limits, 'token', { client }),
    now,
    attempt,
    (error) => error instanceof HttpError && error.status === 404,
  );
}

/**
 * Limits of the sign-in calls (login, magic link, registration, reset, token), per e-mail address
 * and per client address, in a 15-minute window. Servers read overrides from
 * PORTAL_SIGNIN_LIMIT_PER_ADDRESS and PORTAL_SIGNIN_LIMIT_PER_CLIENT (the end-to-end suites sign in
 * from one address many times). For passwords, perAddress applies per address *and client* (see
 * limitGuess).
 */
export interface SignInLimits {
  windowSeconds: number;
  perAddress: number;
  perClient: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { windowSeconds: 15 * 60, perAddress: 5, perClient: 30 };

export function signInLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): SignInLimits {
  const read = (name: string, fallback: number) => (Number(env[name]) > 0 ? Number(env[name]) : fallback);
  return {
    windowSeconds: DEFAULT_SIGN_IN_LIMITS.windowSeconds,
    perAddress: read('PORTAL_SIGNIN_LIMIT_PER_ADDRESS', DEFAULT_SIGN_IN_LIMITS.perAddress),
    perClient: read('PORTAL_SIGNIN_LIMIT_PER_CLIENT', DEFAULT_SIGN_IN_LIMITS.perClient),
  };
}

/**
 * The client a per-client budget counts: an IPv4 address as is, an IPv6 address by its /64 prefix.
 * A single IPv6 subscriber line usually gets a whole /64, so counting full addresses would hand one
 * attacker 2^64 "fresh clients".
 */
export function clientKey(ip: string): string {
  const address = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The per-client and (with an address) per-address budgets of one sign-in action. */
export function signInRules(
  limits: SignInLimits,
  action: string,
  subject: { address?: string; client: string },
): RateLimitRule[] {
  const windowSeconds = limits.windowSeconds;
  const rules: RateLimitRule[] = [
    { bucket: `${action}:client:${clientKey(subject.client)}`, windowSeconds, limit: limits.perClient },
  ];
  if (subject.address)
    rules.push({ bucket: `${action}:address:${subject.address}`, windowSeconds, limit: limits.perAddress });
  return rules;
}

/**
 * The budget of one mailbox, whichever flow mails it a link that signs its owner in when asked with
 * the address alone (a login link, an order-number or partner sign-in link, a reset): `perAddress`
 * mails in the window in all, so no mailbox is flooded by asking each flow in turn
 * (docs/architecture.md "Sign-in safety"). A mailbox is what the address delivers to (mailboxOf):
 * `name+1@…`, `name+2@…` and Gmail's dotted spellings share one budget.
 */
export function mailboxRule(
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  address: string,
): RateLimitRule {
  return {
    bucket: `mailbox:${mailboxOf(address)}`,
    windowSeconds: limits.windowSeconds,
    limit: limits.perAddress,
  };
}

/**
 * The mailbox's second budget, of the mails that go out only when facts besides the address held
 * (e-mail + zip, bulk renewal, the e-mail widget): counted where the mail is made, off the request,
 * and never read by a request. Were these mails counted in mailboxRule's budget, which requests
 * read, a 429 there would tell whether an address and a zip code belong together; were the
 * requests counted instead, anyone typing a wrong zip code would spend the owner's mails. A mailbox
 * gets at most 2 × `perAddress` sign-in mails in a window.
 */
export function checkedMailboxRule(
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  address: string,
): RateLimitRule {
  return { ...mailboxRule(limits, address), bucket: `mailbox-checked:${mailboxOf(address)}` };
}

/**
 * The mailbox's third budget, of the mails anyone who types the address may have sent there and
 * that sign no one in by themselves: a registration's (its confirmation, or a hint where the address
 * has an account) and the opt-in widget's confirmation. Counted where the mail is made, apart from
 * the other two: in mailboxRule's budget five registrations of someone's address would refuse the
 * owner's login link; in checkedMailboxRule's they would silently stop the owner's e-mail + zip and
 * bulk renewal links. What it holds depends on no fact but the address, so a request may read it.
 * A mailbox gets at most 3 × `perAddress` such mails in a window.
 */
export function unprovenMailboxRule(
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  address: string,
): RateLimitRule {
  return { ...mailboxRule(limits, address), bucket: `mailbox-unproven:${mailboxOf(address)}` };
}

/**
 * Consumes the per-client and per-address budgets of one sign-in attempt, and the mailbox's
 * (mailboxRule); 429 when one is spent. For requests that may send a link that signs in (login
 * links, reset, a partner's sign-in link): each one counts, as a send, and the places it took are
 * answered: a link it mails carries them (insertLoginToken `countedIn`) and gives them back when
 * it is opened, the request's success. Checks whose success sends nothing use countingFailures
 * instead.
 */
export async function limitSignInAttempt(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  action: string,
  subject: { address?: string; client: string },
  now: Date,
): Promise<CountedPlace[]> {
  const rules = signInRules(limits, action, subject);
  if (subject.address) rules.push(mailboxRule(limits, subject.address));
  return consumeSignInRules(db, tenantId, rules, now);
}

/** Takes a place in each budget of a sign-in request, in order; 429 at the first one spent. */
async function consumeSignInRules(
  db: Queryable,
  tenantId: string,
  rules: readonly RateLimitRule[],
  now: Date,
): Promise<CountedPlace[]> {
  const places: CountedPlace[] = [];
  await countingHits(tenantId, async () => {
    for (const rule of rules) places.push(await consumeRateLimit(db, tenantId, rule, now));
  });
  return places;
}

/**
 * A sign-in request that mails a link only when facts it brings besides the address hold (e-mail +
 * zip, bulk renewal's last name and zip code), or whose mail is none the owner signs in by when
 * asked for by someone else (a registration, the opt-in widget). Its answer is the same whatever
 * matched, so every request counts, as a send, against the client's budget and the budget of the
 * address *and* client: a client that spends it is refused, not the address's owner on another
 * client. The mailbox is capped where the mail is made, in a budget of its own (mayMailSignInLink,
 * checkedMailboxRule; mayMailUnproven, unprovenMailboxRule): asking with a wrong zip code sends
 * nothing, so it must not spend the owner's mails, or five such requests from anywhere would refuse
 * the owner's own login link with nothing in the mailbox to sign in by.
 */
export async function limitFactCheckedAttempt(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  action: string,
  subject: { address: string; client: string },
  now: Date,
): Promise<CountedPlace[]> {
  const rules = signInRules(limits, action, {
    address: pairOf(subject.address, clientKey(subject.client)),
    client: subject.client,
  });
  return consumeSignInRules(db, tenantId, rules, now);
}

/**
 * Whether the link a fact-checked sign-in request earned (limitFactCheckedAttempt) may go out: one
 * more mail in the mailbox's budget of such mails (checkedMailboxRule). Over it nothing is made, and
 * the owner has the links those mails carried. The place it took, for the link to give back when
 * it is opened (a success); null when the budget is spent.
 */
export function mayMailSignInLink(
  db: Queryable,
  tenantId: string,
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  email: string,
  now: Date,
): Promise<CountedPlace | null> {
  return placeInMailbox(db, tenantId, checkedMailboxRule(limits, email), now);
}

/** One more mail in a mailbox's budget, the place it took; null (and not counted) when it is spent. */
async function placeInMailbox(
  db: Queryable,
  tenantId: string,
  rule: RateLimitRule,
  now: Date,
): Promise<CountedPlace | null> {
  if ((await countHit(db, tenantId, rule, now)) > rule.limit) {
    // Not made, so not counted: an opened link's place is free for the next one.
    await refundHit(db, tenantId, rule, now);
    return null;
  }
  return {
    bucket: bucketKey(rule.bucket),
    windowStart: windowOf(rule.windowSeconds, now).start.toISOString(),
  };
}

/**
 * Whether a registration's or the opt-in widget's mail may go out (unprovenMailboxRule): one more
 * in that budget, null when it is spent (nothing is made then: the mailbox has had this window's).
 */
export function mayMailUnproven(
  db: Queryable,
  tenantId: string,
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  email: string,
  now: Date,
): Promise<CountedPlace | null> {
  return placeInMailbox(db, tenantId, unprovenMailboxRule(limits, email), now);
}

/**
 * The e-mail widget's request (order number, zip code and an address to mail): its answer is the
 * same whatever matched, so every request counts, as a send, against the client's budget and the
 * budget of the order number (however many leading zeros are typed) *and* client: a client that
 * spends it is refused, not the order number's owner on another client. What reaches a mailbox is
 * capped where the mail is made (mayMailOrderNumberLink). The partial logins, whose answers say
 * whether the proof held, guess instead (guessingOrderNumber).
 */
export async function limitOrderNumberAttempt(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  orderNumber: string,
  client: string,
  now: Date,
): Promise<CountedPlace[]> {
  const target = orderNumber.replace(/^0+/, '');
  return limitSignInAttempt(
    db,
    tenantId,
    limits,
    'order-number',
    { address: pairOf(target, clientKey(client)), client },
    now,
  );
}

/**
 * Whether one more e-mail widget link may go to an address on record of an order number: at most
 * `perAddress` in the window, whichever clients asked, so no mailbox is flooded; over it the mail is
 * not made, and the owner has the links those requests sent (as with login links). Counted off the
 * request, where the match is known, so no answer tells whether order number, zip code and address
 * belong together.
 */
export async function mayMailOrderNumberLink(
  db: Queryable,
  tenantId: string,
  limits: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>,
  orderNumber: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const pair = {
    bucket: `order-number-mail:${pairOf(orderNumber.replace(/^0+/, ''), email)}`,
    windowSeconds: limits.windowSeconds,
  };
  // A mail not made is not counted (mayMailSignInLink).
  if ((await countHit(db, tenantId, pair, now)) > limits.perAddress) {
    await refundHit(db, tenantId, pair, now);
    return false;
  }
  // The mailbox's budget of mails that went out because facts held (checkedMailboxRule).
  const mailbox = checkedMailboxRule(limits, email);
  if ((await countHit(db, tenantId, mailbox, now)) <= limits.perAddress) return true;
  await refundHit(db, tenantId, mailbox, now);
  await refundHit(db, tenantId, pair, now);
  return false;
}

/**
 * Credentials a visitor may guess: a password (of an e-mail address) and an order number (with a
 * last name or a zip code, the anonymous partial logins). Each kind keeps its own budgets.
 */
export type GuessKind = 'password' | 'order-number';

/** Wrong guesses on one target in a day (all clients) after which its guessing waits for the next day. */
export const GUESS_DAILY_FAILURES = 100;
/** Wrong guesses on one target (from any client) before its back-off starts. */
export const GUESS_FREE_FAILURES = 5;
/** First back-off step; it doubles with each further failure, up to the window length. */
export const GUESS_BACKOFF_BASE_MS = 2000;

export function passwordBackoffMs(failures: number, windowSeconds: number): number {
  if (failures < GUESS_FREE_FAILURES) return 0;
  return Math.min(GUESS_BACKOFF_BASE_MS * 2 ** (failures - GUESS_FREE_FAILURES), windowSeconds * 1000);
}

const pairOf = (target: string, client: string) => `${target}|${client}`;

/**
 * The buckets' prefix of a kind. The password's are those of before order numbers were guessed the
 * same way; the order number's differ from the e-mail widget's `order-number:` budgets, which count
 * every request as a send and are not given back.
 */
const prefixOf = (kind: GuessKind) => (kind === 'password' ? 'password' : 'order-number-guess');

/** What a guess is about: the target (an address, an order number) and who guesses. */
export interface GuessSubject {
  target: string;
  client: string;
}

/**
 * The budgets a guess takes a place in before it is checked, and a right guess gives back: per
 * client, per target and client, and for an order number per target from all clients as well
 * (four times the per-target budget of a client in the window): its name or zip code has few
 * values, so a burst from many fresh clients at once must stop too, while a password's owner is
 * never held back by someone else's guesses (they are slowed by the back-off instead).
 */
function guessRules(kind: GuessKind, limits: SignInLimits, subject: GuessSubject): RateLimitRule[] {
  const windowSeconds = limits.windowSeconds;
  const prefix = prefixOf(kind);
  const pair = kind === 'password' ? 'address-client' : 'target-client';
  const rules: RateLimitRule[] = [
    { bucket: `${prefix}:client:${subject.client}`, windowSeconds, limit: limits.perClient },
    {
      bucket: `${prefix}:${pair}:${pairOf(subject.target, subject.client)}`,
      windowSeconds,
      limit: limits.perAddress,
    },
  ];
  if (kind === 'order-number')
    rules.push({ bucket: `${prefix}:target:${subject.target}`, windowSeconds, limit: limits.perAddress * 4 });
  return rules;
}

/** The day's ceiling of wrong guesses on a target, a place taken before the check (so a burst cannot pass it). */
const dayRule = (kind: GuessKind, subject: GuessSubject): RateLimitRule => ({
  bucket: `${prefixOf(kind)}:failures-day:${subject.target}`,
  windowSeconds: 86_400,
  limit: GUESS_DAILY_FAILURES,
});

const normalized = (given: GuessSubject): GuessSubject => ({
  target: given.target,
  client: clientKey(given.client),
});

/**
 * Guesses of a credential: slow a guesser without letting anyone lock the owner out. Budgets of
 * wrong guesses — a right one gives its places back (recordGuessSuccess), so five successful
 * sign-ins never answer "too many attempts":
 *  - per client, any target (`perClient`): one client cannot spray many accounts or order numbers;
 *  - per target *and* client (`perAddress`): a client guessing one target is stopped, but its
 *    429 is its own — the owner on another client is not refused;
 *  - per target, from all clients, a back-off after GUESS_FREE_FAILURES wrong guesses (2 s,
 *    doubling, at most the window) that holds back only clients that already failed on this
 *    target: a client without a failure here is still checked, so the owner's right answer from a
 *    fresh client passes while the guessing clients wait;
 *  - an order number's window budget of all clients (guessRules);
 *  - per target and day, GUESS_DAILY_FAILURES wrong guesses from any clients, a place taken before
 *    the check; then guessing that target waits for the next day (a password's owner still signs
 *    in by magic link, the mailbox being the proof; an order number's by their account).
 * Call before checking; report the outcome with recordGuessFailure or recordGuessSuccess, with the
 * same `now`.
 */
export async function limitGuess(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  kind: GuessKind,
  given: GuessSubject,
  now: Date,
): Promise<void> {
  const subject = normalized(given);
  const windowSeconds = limits.windowSeconds;
  const prefix = prefixOf(kind);
  const day = dayRule(kind, subject);
  try {
    await consumeRateLimit(db, tenantId, day, now);
  } catch (error) {
    if (error instanceof HttpError && error.status === 429)
      limitHit(tenantId, kind === 'password' ? 'password_day' : 'order_number_day');
    throw error;
  }
  const taken: RateLimitRule[] = [];
  try {
    await countingHits(tenantId, async () => {
      for (const rule of guessRules(kind, limits, subject)) {
        taken.push(rule);
        await consumeRateLimit(db, tenantId, rule, now);
      }
    });
    const own = await peekHits(
      db,
      tenantId,
      { bucket: `${prefix}:failures:${pairOf(subject.target, subject.client)}`, windowSeconds },
      now,
    );
    if (own.hits === 0) return; // a fresh client is always checked
    const all = await peekHits(
      db,
      tenantId,
      { bucket: `${prefix}:failures:${subject.target}`, windowSeconds },
      now,
    );
    const waitUntil = (all.lastHitAt?.getTime() ?? 0) + passwordBackoffMs(all.hits, windowSeconds);
    if (now.getTime() < waitUntil) {
      limitHit(tenantId, kind === 'password' ? 'password_backoff' : 'order_number_backoff');
      throw tooMany(Math.ceil((waitUntil - now.getTime()) / 1000));
    }
  } catch (error) {
    // Refused before it was checked: no wrong guess, so no place in any budget. Kept, the places of
    // refused retries would fill the order number's budget of all clients, and a few guessers
    // would lock its owner out (limits count failures, docs/architecture.md "Sign-in safety").
    for (const rule of [...taken, day]) await refundHit(db, tenantId, rule, now);
    throw error;
  }
}

/** Counts a wrong guess for the target and for the client on that target (its day's place is taken already). */
export async function recordGuessFailure(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  kind: GuessKind,
  given: GuessSubject,
  now: Date,
): Promise<void> {
  const subject = normalized(given);
  const windowSeconds = limits.windowSeconds;
  const prefix = prefixOf(kind);
  await countHit(db, tenantId, { bucket: `${prefix}:failures:${subject.target}`, windowSeconds }, now);
  await countHit(
    db,
    tenantId,
    { bucket: `${prefix}:failures:${pairOf(subject.target, subject.client)}`, windowSeconds },
    now,
  );
}

/** A right guess: the attempt's places in its budgets and in the day's ceiling are given back. */
export async function recordGuessSuccess(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  kind: GuessKind,
  given: GuessSubject,
  now: Date,
): Promise<void> {
  const subject = normalized(given);
  for (const rule of [...guessRules(kind, limits, subject), dayRule(kind, subject)])
    await refundHit(db, tenantId, rule, now);
}

/**
 * One guess inside the guess limiter: limitGuess before the attempt, then a wrong guess (as
 * `isWrongGuess` tells it from the attempt's error) counted as a failure; a right answer, or a
 * refusal that proves nothing, gives the attempt's places back. The password checks call the three
 * steps themselves: their wrong guess is a compared hash, not an error to tell apart.
 */
async function guessing<T>(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  kind: GuessKind,
  subject: GuessSubject,
  now: Date,
  attempt: () => Promise<T>,
  isWrongGuess: (error: unknown) => boolean,
): Promise<T> {
  await limitGuess(db, tenantId, limits, kind, subject, now);
  try {
    const result = await attempt();
    await recordGuessSuccess(db, tenantId, limits, kind, subject, now);
    return result;
  } catch (error) {
    if (isWrongGuess(error)) await recordGuessFailure(db, tenantId, limits, kind, subject, now);
    else await recordGuessSuccess(db, tenantId, limits, kind, subject, now);
    throw error;
  }
}

/**
 * The anonymous partial logins' guess of an order number with a last name or a zip code (the order
 * number counts however many leading zeros are typed). A wrong name or zip code, or an order number
 * that does not exist, is a failure; a proof that held is a success, and the link it mails counts
 * against the address on record as every sign-in mail does (limitSignInAttempt `partner-link`).
 */
export async function guessingOrderNumber<T>(
  db: Queryable,
  tenantId: string,
  limits: SignInLimits,
  given: { orderNumber: string; client: string },
  now: Date,
  attempt: () => Promise<T>,
  isWrongGuess: (error: unknown) => boolean,
): Promise<T> {
  const subject = { target: given.orderNumber.replace(/^0+/, ''), client: given.client };
  return guessing(db, tenantId, limits, 'order-number', subject, now, attempt, isWrongGuess);
}

/**
 * A refused partial login that was a wrong guess: no subscription with that order number, or a name
 * or zip code that does not match it (a 400 whose details carry the §4 result status).
 */
export function isWrongOrderNumberGuess(error: unknown): boolean {
  if (!(error instanceof HttpError)) return false;
  const status = (error.details as { status?: unknown } | undefined)?.status;
  return status === 'not_found' || status === 'verification_failed';
}
