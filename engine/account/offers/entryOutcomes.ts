import { ApiError } from '../../core/apiClient';
import { tryAgainText } from '../../core/tooManyText';
import type { TranslateFn } from '../../core/translation';
import { retryAfterSecondsOf } from '../../domain/retryAfter';

/**
 * The named outcomes of the anonymous entries of the renewal, upgrade, cancellation and bulk
 * renewal flows (account-flows.md §2, §4 "Renewal/upgrade anonymous login", §8): none of them opens
 * a session; the server mails a sign-in link to the address on record and answers 400 with status
 * confirm_email and the address masked: the fields prove no identity, the mailbox does. Other
 * answers name why no link went out.
 */
export type EntryOutcome =
  | 'entry:link_sent'
  | 'entry:not_found'
  | 'entry:verification_failed:name'
  | 'entry:verification_failed:zip'
  | 'entry:no_email_on_record'
  | 'entry:validation_failed'
  | 'entry:rate_limited'
  | 'entry:externally_managed'
  | 'entry:not_offered'
  | 'entry:cancellation_not_possible'
  | 'entry:already_cancelled'
  | 'entry:bundle_component'
  | 'entry:failed';

export interface EntryResult {
  outcome: EntryOutcome;
  maskedEmail?: string;
  orderNumber?: string;
  /** A 429's wait (engine/domain/retryAfter.ts). */
  retryAfterSeconds?: number;
}

/** The text of each outcome (placeholders maskedEmail, orderNumber); a flow may override some (entryText). */
export const ENTRY_OUTCOME_KEYS: Record<EntryOutcome, string> = {
  'entry:link_sent': 'account.entry.linkSent',
  'entry:not_found': 'account.entry.notFound',
  'entry:verification_failed:name': 'account.entry.invalidName',
  'entry:verification_failed:zip': 'account.entry.invalidZipcode',
  'entry:no_email_on_record': 'account.entry.noEmailOnRecord',
  'entry:validation_failed': 'account.entry.validationFailed',
  'entry:rate_limited': 'shell.tooManyAttempts',
  'entry:externally_managed': 'account.entry.externallyManaged',
  'entry:not_offered': 'account.entry.notOffered',
  'entry:cancellation_not_possible': 'account.entry.cancellationNotPossible',
  'entry:already_cancelled': 'account.entry.alreadyCancelled',
  'entry:bundle_component': 'account.entry.bundleComponent',
  'entry:failed': 'shell.genericError',
};

const KNOWN = new Set([
  'not_found',
  'no_email_on_record',
  'validation_failed',
  'externally_managed',
  'cancellation_not_possible',
  'already_cancelled',
  'bundle_component',
]);

/** The outcome of a refused entry call: the 400 result's status (details.status, else the error code), or the generic failure. */
export function entryResultOf(error: unknown): EntryResult {
  if (!(error instanceof ApiError)) return { outcome: 'entry:failed' };
  if (error.status === 429)
    return { outcome: 'entry:rate_limited', retryAfterSeconds: retryAfterSecondsOf(error) };
  const details = (
    error.details && typeof error.details === 'object' && !Array.isArray(error.details) ? error.details : {}
  ) as Record<string, unknown>;
  const status = typeof details.status === 'string' ? details.status : error.code;
  const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : undefined);
  if (status === 'confirm_email')
    return { outcome: 'entry:link_sent', maskedEmail: text('maskedEmail') ?? '' };
  if (status === 'verification_failed')
    return {
      outcome: text('method') === 'name' ? 'entry:verification_failed:name' : 'entry:verification_failed:zip',
    };
  // The flow is switched off for the subscription's publication (portal-core.md §6).
  if (status === 'feature_disabled') return { outcome: 'entry:not_offered' };
  if (KNOWN.has(status))
    return { outcome: `entry:${status}` as EntryOutcome, orderNumber: text('orderNumber') };
  return { outcome: 'entry:failed' };
}

/** The text key of an outcome, a flow's own key first. */
export function entryText(
  outcome: EntryOutcome,
  overrides: Partial<Record<EntryOutcome, string>> = {},
): string {
  return overrides[outcome] ?? ENTRY_OUTCOME_KEYS[outcome];
}

/**
 * The message of an outcome in the screen's language: a 429 says when to try again
 * (engine/core/tooManyText.ts); the others are their text with the placeholders filled in.
 */
export function entryMessage(
  t: TranslateFn,
  result: EntryResult,
  values: { maskedEmail?: string; orderNumber?: string } = {},
  overrides: Partial<Record<EntryOutcome, string>> = {},
): string {
  if (result.outcome === 'entry:rate_limited')
    return `${t(entryText(result.outcome, overrides))} ${tryAgainText(t, result.retryAfterSeconds)}`;
  return t(entryText(result.outcome, overrides), {
    maskedEmail: result.maskedEmail ?? values.maskedEmail ?? '',
    orderNumber: result.orderNumber ?? values.orderNumber ?? '',
  });
}
