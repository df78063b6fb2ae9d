/**
 * E-card rules shared by the e-card screen and the server (account-flows.md §2 "E-card", §3 "E-card",
 * §5 "E-card", §9 "E-card earliest send: one day ahead"). The limits the spec leaves open are
 * chosen here, once (docs/subscribers.md "E-cards"): names up to 50 characters, a message up to 1,000, at
 * most 10 cards per user in 24 hours, and a timed card at most one year ahead.
 */
import { isBlankText, isOneLineText, isPlausibleEmail, textLength } from './fieldRules';

export const ECARD_NAME_MAX_LENGTH = 50;
export const ECARD_MESSAGE_MAX_LENGTH = 1000;
/** Abuse limit: cards one user may create in any 24 hours (sent now or timed). */
export const ECARD_DAILY_CAP = 10;
/** §9: a timed card goes at least one day ahead. */
export const ECARD_EARLIEST_AHEAD_MS = 24 * 60 * 60 * 1000;
/**
 * The form offers "now + one day" as the earliest time; filling in the rest of the form takes a
 * while, so the server accepts a time that was one day ahead up to this long ago.
 */
export const ECARD_SEND_GRACE_MS = 30 * 60 * 1000;
export const ECARD_LATEST_AHEAD_MS = 366 * 24 * 60 * 60 * 1000;

export interface ECardTemplateLike {
  name: string;
  category: string;
  previewImageUrl: string;
}

/** The categories of the template filter, in the order the templates list them. */
export function eCardCategories(templates: readonly ECardTemplateLike[]): string[] {
  return [...new Set(templates.map((t) => t.category))];
}

/** The templates of a category (all for none). */
export function templatesIn<T extends ECardTemplateLike>(
  templates: readonly T[],
  category: string | undefined,
): T[] {
  return category ? templates.filter((t) => t.category === category) : [...templates];
}

/** The earliest time a timed card may be sent (§9), as the form's minimum. */
export function earliestSendAt(now: Date): Date {
  return new Date(now.getTime() + ECARD_EARLIEST_AHEAD_MS);
}

export interface ECardDraft {
  template: string;
  from: string;
  to: string;
  toEmail: string;
  message: string;
  /** 'now', or 'timed' with sendAt. */
  timing: 'now' | 'timed';
  /** ISO date-time of a timed card. */
  sendAt?: string | null;
}

export type ECardField = 'template' | 'from' | 'to' | 'toEmail' | 'message' | 'sendAt';
export type ECardProblem = 'required' | 'too_long' | 'invalid' | 'too_early' | 'too_late';

/**
 * Every problem of a card at once (§5: template, from, to, toEmail (e-mail), message and the
 * execution choice required; a timed send at least one day ahead). `now` is the server's clock;
 * the grace covers the time the form was open.
 */
export function eCardProblems(
  draft: ECardDraft,
  templates: readonly ECardTemplateLike[],
  now: Date,
): Partial<Record<ECardField, ECardProblem>> {
  const problems: Partial<Record<ECardField, ECardProblem>> = {};
  if (!draft.template) problems.template = 'required';
  else if (!templates.some((t) => t.name === draft.template)) problems.template = 'invalid';
  for (const field of ['from', 'to'] as const) {
    const value = draft[field].trim();
    if (isBlankText(value)) problems[field] = 'required';
    else if (textLength(value) > ECARD_NAME_MAX_LENGTH) problems[field] = 'too_long';
    // The names go into the e-mail's subject and greeting: one line, no control characters and no
    // direction override (fieldRules.ts isOneLineText).
    else if (!isOneLineText(value)) problems[field] = 'invalid';
  }
  const email = draft.toEmail.trim();
  if (!email) problems.toEmail = 'required';
  else if (!isPlausibleEmail(email)) problems.toEmail = 'invalid';
  const message = draft.message.trim();
  if (isBlankText(message)) problems.message = 'required';
  else if (textLength(message) > ECARD_MESSAGE_MAX_LENGTH) problems.message = 'too_long';
  if (draft.timing === 'timed') {
    const at = draft.sendAt ? Date.parse(draft.sendAt) : NaN;
    if (!draft.sendAt) problems.sendAt = 'required';
    else if (Number.isNaN(at)) problems.sendAt = 'invalid';
    else if (at < earliestSendAt(now).getTime() - ECARD_SEND_GRACE_MS) problems.sendAt = 'too_early';
    else if (at > now.getTime() + ECARD_LATEST_AHEAD_MS) problems.sendAt = 'too_late';
  }
  return problems;
}

/** Whether a user who created `createdInLastDay` cards in the last 24 hours may create another. */
export const withinDailyCap = (createdInLastDay: number) => createdInLastDay < ECARD_DAILY_CAP;

/**
 * Where a template's image is: an absolute URL as it is, or a file of the tenant's e-card images
 * (tenants/assets/<tenant>/e-cards/<file>), served under the portal's API (docs/subscribers.md "E-cards").
 */
export function eCardImageFile(previewImageUrl: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}\.(png|jpg|jpeg|gif|webp)$/i.test(previewImageUrl)
    ? previewImageUrl
    : null;
}

export function eCardImageUrl(previewImageUrl: string, apiBase: string): string {
  const file = eCardImageFile(previewImageUrl);
  return file ? `${apiBase.replace(/\/$/, '')}/e-card/images/${encodeURIComponent(file)}` : previewImageUrl;
}
