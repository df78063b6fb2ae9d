/**
 * Client error reports (portal-core.md §9 and account-flows.md §9 "Error-reporting sample rate
 * 0.25"): what a subscriber's browser tells the portal when a screen fails, so an operator sees a
 * broken screen or a deploy that left open tabs behind (docs/going-live.md "Client error reports")
 * before a subscriber calls. Pure rules: the browser builds a report with them, the server
 * (server/client-errors) scrubs it again with the same functions before it logs it.
 */
import { isStaleFileError, type ClientErrorKind } from './clientErrorKinds';

export { CLIENT_ERROR_KINDS, ERROR_REPORT_SAMPLE_RATE, type ClientErrorKind } from './clientErrorKinds';

/** The longest name, message, stack and path a report carries (schemas/api/client-error-report.schema.json). */
export const CLIENT_ERROR_LIMITS = { name: 80, message: 300, stack: 2000, path: 200 } as const;

export interface ClientErrorReport {
  kind: ClientErrorKind;
  name: string;
  message: string;
  stack?: string;
  /** The screen's path under the portal base, without query or fragment, numbers replaced. */
  path: string;
}

/** A word of an error's text: what lies between spaces, quotes, brackets, commas and semicolons. */
const WORD = /[^\s<>"'(),;]+/g;
/** An e-mail address at the start of a word (also URL-encoded), not a stack frame's `name@https://…`. */
const EMAIL = /^[^@]*(?:@|%40)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i;
/** Runs of seven or more digits, spaces, dashes and slashes: order, customer, phone and account numbers, dates. */
const LONG_NUMBER = /\d[\d \-/]{5,}\d/g;
/** A quoted text of three or more characters: what a parser or a URL constructor echoes of its input. */
const QUOTED = /"[^"\n]{3,}"/g;
// What the API's input guard refuses (server/http/inputGuard.ts): control characters but tab and
// new lines, and halves of a surrogate pair (a cut may leave one).
const UNSENDABLE =
  // eslint-disable-next-line no-control-regex -- the control characters are what it finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A URL's query and fragment (sign-in links carry their token there) go; a stack frame's `:line:column` stays. */
function withoutQuery(word: string): string {
  const cut = word.search(/[?#]/);
  if (cut < 0 || !(word.includes('://') || word.startsWith('/'))) return word;
  const position = /(?::\d+){1,2}$/.exec(word.slice(cut))?.[0] ?? '';
  return `${word.slice(0, cut)}?…${position}`;
}

/**
 * Personal data has no place in a log. Replaced: e-mail addresses, runs of seven or more digits
 * (order, customer and phone numbers, an IBAN's digits, dates of birth), quoted input a parser
 * echoes, and the query and fragment of every URL; the text is cut to `max`. Kept: a stack's
 * files, lines and columns, which make it worth reading. Every step is one pass over a text cut
 * to twice `max` first, so a long text costs no more than a short one. What a script writes into a
 * message in other words (a name without quotes) cannot be told apart and stays.
 */
export function scrubbed(text: string, max: number): string {
  return text
    .slice(0, max * 2)
    .replace(QUOTED, '"…"')
    .replace(WORD, (word) => {
      const bare = withoutQuery(word);
      return EMAIL.test(bare) ? '[email]' : bare;
    })
    .replace(LONG_NUMBER, '[number]')
    .slice(0, max)
    .replace(UNSENDABLE, '');
}

/**
 * A path as a report carries it: no query or fragment, each segment holding a digit or an `@`
 * replaced by `:param` (subscription and business partner numbers, an address).
 */
export function reportPath(pathname: string): string {
  const bare = pathname.slice(0, CLIENT_ERROR_LIMITS.path * 2).split(/[?#]/, 1)[0];
  return bare
    .split('/')
    .map((segment) => (/\d|@|%40/i.test(segment) || segment.length > 40 ? ':param' : segment))
    .join('/')
    .slice(0, CLIENT_ERROR_LIMITS.path)
    .replace(UNSENDABLE, '');
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
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const report: ClientErrorReport = {
    kind: isStaleFileError(error) ? 'chunk' : kind,
    name: scrubbed(known ? text(error.name, 'Error') || 'Error' : typeof error, CLIENT_ERROR_LIMITS.name),
    message: scrubbed(known ? text(error.message, '') : describe(error), CLIENT_ERROR_LIMITS.message),
    path: reportPath(pathname),
  };
  const stack = known ? text(error.stack, '') : '';
  if (stack) report.stack = scrubbed(stack, CLIENT_ERROR_LIMITS.stack);
  return report;
}

/** Any thrown value as text; one whose String() throws (an object without a prototype) as its type. */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}
