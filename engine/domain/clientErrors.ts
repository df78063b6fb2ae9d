/**
 * Client error reports (portal-core.md §9 and account-flows.md §9 "Error-reporting sample rate
 * 0.25"): what a subscriber's browser tells the portal when a screen fails, so an operator sees a
 * broken screen or a deploy that left open tabs behind (docs/going-live.md "Operations") before a
 * subscriber calls. Pure data and rules: the browser builds a report with them, the server
 * (server/client-errors) checks and scrubs it again with the same functions before it logs it.
 */

import { isStaleFileError } from './staleBuild';

/** The share of errors a browser reports: each error is sent with this probability. */
export const ERROR_REPORT_SAMPLE_RATE = 0.25;

/** What failed: a screen while rendering, a script file that did not load, a listener, a promise. */
export const CLIENT_ERROR_KINDS = ['render', 'chunk', 'error', 'rejection'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** The longest message, stack and path a report carries (schemas/api/client-error-report.schema.json). */
export const CLIENT_ERROR_LIMITS = { name: 80, message: 300, stack: 2000, path: 200 } as const;

export interface ClientErrorReport {
  kind: ClientErrorKind;
  name: string;
  message: string;
  stack?: string;
  /** The screen's path under the portal base, without query or fragment, numbers replaced. */
  path: string;
}

/**
 * Personal data has no place in a log: e-mail addresses and runs of seven or more digits and spaces
 * (order, customer and phone numbers, an IBAN's digits) are replaced, and the text is cut to `max`.
 * Shorter numbers stay: a stack's line and column numbers are what make it worth reading.
 */
export function scrubbed(text: string, max: number): string {
  return text
    .replace(/[^\s@<>"'(),;]+@[^\s@<>"'(),;]+/g, '[email]')
    .replace(/\d[\d ]{5,}\d/g, '[number]')
    .slice(0, max);
}

/**
 * A path as a report carries it: no query or fragment (sign-in links carry their token there), each
 * segment holding a digit replaced by `:param` (subscription and business partner numbers).
 */
export function reportPath(pathname: string): string {
  const bare = pathname.split(/[?#]/, 1)[0];
  return bare
    .split('/')
    .map((segment) => (/\d/.test(segment) || segment.length > 40 ? ':param' : segment))
    .join('/')
    .slice(0, CLIENT_ERROR_LIMITS.path);
}

/**
 * The report of one error, scrubbed: what a browser sends and what the server logs. A file of an
 * older build that did not load is a `chunk`, however it surfaced (a screen, a promise).
 */
export function clientErrorReport(
  error: unknown,
  kind: ClientErrorKind,
  pathname: string,
): ClientErrorReport {
  const known = error instanceof Error;
  const report: ClientErrorReport = {
    kind: isStaleFileError(error) ? 'chunk' : kind,
    name: scrubbed(known ? error.name || 'Error' : typeof error, CLIENT_ERROR_LIMITS.name),
    message: scrubbed(known ? error.message : String(error), CLIENT_ERROR_LIMITS.message),
    path: reportPath(pathname),
  };
  if (known && error.stack) report.stack = scrubbed(error.stack, CLIENT_ERROR_LIMITS.stack);
  return report;
}
