import type { TranslateFn } from '../../core/translation';

/**
 * The text of a field error code (engine/domain/licenses.ts FieldError, or the server's `taken`);
 * an e-mail address that is not one says so rather than "please check".
 */
export function fieldErrorText(t: TranslateFn, code: string, max?: number, field?: string): string {
  switch (code) {
    case 'required':
      return t('multi-user-licenses.field.required');
    case 'too_long':
      return t('multi-user-licenses.field.tooLong', { max });
    case 'one_line':
      return t('shell.oneLine');
    case 'no_link':
      return t('multi-user-licenses.field.noLink');
    case 'taken':
      return t('multi-user-licenses.error.exists');
    case 'not_for_sign_in':
      return t('multi-user-licenses.field.emailNotForSignIn');
    default:
      return t(
        field === 'emailAddress'
          ? 'multi-user-licenses.field.invalidEmail'
          : 'multi-user-licenses.field.invalid',
      );
  }
}
