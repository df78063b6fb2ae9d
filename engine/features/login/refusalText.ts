import { ApiError } from '../../core/apiClient';
import type { TranslateFn } from '../../core/translation';
import { loginErrorKey, loginErrorText } from './loginErrors';

/** The fields of the create-account and forgot-password forms the server may name. */
export type AccountFormField = 'displayName' | 'email' | 'password' | 'passwordConfirm';

export interface Refusal {
  /** The server's reasons at the fields it named, in the screen's language. */
  fields: Partial<Record<AccountFormField, string>>;
  /** The reason that belongs to no field (shown over the form), if any. */
  message?: string;
}

interface FieldProblem {
  field?: unknown;
  message?: unknown;
}

/** The field's reason from one entry of a validation_failed answer (server/http/validateBody.ts). */
function fieldReason(field: AccountFormField, problem: FieldProblem, t: TranslateFn): string {
  const said = typeof problem.message === 'string' ? problem.message : '';
  // A name of more than one line (the schemas' `one-line` format, engine/domain/fieldRules.ts).
  if (said.includes('"one-line"')) return t('shell.oneLine');
  const longest = /more than (\d+)/.exec(said);
  switch (field) {
    case 'email':
      return longest ? t('login.emailTooLong', { max: Number(longest[1]) }) : t('login.emailRefused');
    case 'password':
      return t('login.passwordRule');
    case 'passwordConfirm':
      return t('login.passwordMismatch');
    case 'displayName':
      return t('login.displayNameRequired');
  }
}

const FIELDS: readonly AccountFormField[] = ['displayName', 'email', 'password', 'passwordConfirm'];

/**
 * portal-core.md §8: "Registration and forgot-password show the server detail or body text" — the
 * server's reason, never a generic "login failed". A refusal of a field (the address the server's
 * stricter e-mail rule refuses, say) goes to that field, in the screen's language; a named refusal
 * the sign-in forms know (weak password, too many attempts, …) keeps its text; any other refusal
 * shows the server's own message where that is the screen's language (the server writes its
 * messages in British English), else the generic error in the screen's language, since every text
 * a screen shows is in its language; without an answer (the network) the generic error shows.
 */
export function refusalOf(error: unknown, t: TranslateFn, locale: string): Refusal {
  if (!(error instanceof ApiError)) return { fields: {}, message: t('shell.genericError') };
  // validation_failed, weak_password, password_mismatch: a 400 names its fields in `details`.
  if (error.status === 400 && Array.isArray(error.details)) {
    const fields: Refusal['fields'] = {};
    for (const problem of error.details as FieldProblem[]) {
      const field = FIELDS.find((name) => problem?.field === `/${name}`);
      if (field && !fields[field]) fields[field] = fieldReason(field, problem, t);
    }
    if (Object.keys(fields).length > 0) return { fields };
    if ((error.details as FieldProblem[]).some((problem) => String(problem?.message).includes('"one-line"')))
      return { fields: {}, message: t('shell.oneLine') };
  }
  const known = loginErrorKey(error);
  if (known !== 'login.error') return { fields: {}, message: loginErrorText(error, t) };
  if (error.status >= 500 || !error.message || !locale.startsWith('en-'))
    return { fields: {}, message: t('shell.genericError') };
  return { fields: {}, message: error.message };
}
