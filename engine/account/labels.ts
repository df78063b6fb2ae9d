/**
 * Labels the screens build from the codes the server sends: a subscriber
 * sees the billing frequency, the mix type, an issue and the last issue of a subscription in the
 * language of the screen, never in the language the order system happened to write them in. The
 * words come from text keys (engine/account/texts.json, overridable per tenant); the server's
 * words are the fallback for a code the portal does not know.
 *
 * The pattern for every feature: the server sends a code or a structured value (`billingFrequency:
 * "01"`, `issueNumber: "12/2026"`), the screen formats it with a text key of its feature; prose the
 * order system writes (product names, offer descriptions) the server answers in the request's
 * language (server/tenancy/requestLocale.ts, server/store/localizedDetails.ts).
 */
import type { TranslateFn } from '../core/translation';

type Translate = TranslateFn | ((key: string, options?: Record<string, unknown>) => string);

/** A text key's text, or undefined when the key has none (the translator returns the key itself then). */
function textOf(t: Translate, key: string, options?: Record<string, unknown>): string | undefined {
  const text = (t as (key: string, options?: Record<string, unknown>) => string)(key, options);
  return text && text !== key ? text : undefined;
}

/** Billing frequency codes of portal-core.md §3: 01 monthly, 03 quarterly, 06 half-yearly, 12 yearly. */
export const BILLING_FREQUENCIES = ['01', '03', '06', '12'] as const;

/**
 * Mix type codes: PR print, DE e-paper, ON online, KO combination, MG membership (portal-core.md §3),
 * and the other medium types of §9 "Medium types": NE food supplement, DO donation, LB collection.
 */
export const MIX_TYPES = ['PR', 'DE', 'ON', 'KO', 'MG', 'NE', 'DO', 'LB'] as const;

/** "monatlich" / "monthly" from the code "01"; the server's words for an unknown code. */
export function billingFrequencyLabel(
  t: Translate,
  code: string | null | undefined,
  serverText?: string | null,
): string {
  return (code ? textOf(t, `account.billingFrequency.${code}`) : undefined) ?? serverText ?? '';
}

/** "E-Paper" / "Digital edition" from the mix type code; the server's words for an unknown code. */
export function mixTypeLabel(
  t: Translate,
  code: string | null | undefined,
  serverText?: string | null,
): string {
  return (code ? textOf(t, `account.mixType.${code}`) : undefined) ?? serverText ?? '';
}

/** The id prefix of a replacement delivered after a complaint (server/issue-complaint/complaintService.ts). */
export const REPLACEMENT_ISSUE_PREFIX = 'C-';

/**
 * "Ausgabe 12/2026" / "Issue 12/2026" from the issue number ("Ersatz für Ausgabe 12/2026" /
 * "Replacement for issue 12/2026" for a replacement after a complaint); else the issue's title,
 * else its id.
 */
export function issueLabel(
  t: Translate,
  issue: { issueNumber?: string | null; description?: string | null; issue?: string | null },
): string {
  if (issue.issueNumber) {
    const key = issue.issue?.startsWith(REPLACEMENT_ISSUE_PREFIX)
      ? 'account.replacementIssue'
      : 'account.issue';
    return textOf(t, key, { issueNumber: issue.issueNumber }) ?? issue.issueNumber;
  }
  return issue.description ?? issue.issue ?? '';
}

/**
 * The last issue of a subscription, shown under "Runs until" / "Läuft bis": "Issue 12/2026" /
 * "Ausgabe 12/2026" from its number; else the server's words (a renewal's "until 12 March 2027").
 */
export function expiryLabel(
  t: Translate,
  renewal: { expiryIssueNr?: string | null; expiryDesc?: string | null } | null | undefined,
): string {
  if (!renewal) return '';
  if (renewal.expiryIssueNr) return issueLabel(t, { issueNumber: renewal.expiryIssueNr });
  return renewal.expiryDesc ?? '';
}
