import type { TranslateFn } from '../../core/translation';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  passwordRepeatProblem,
} from '../../domain/fieldRules';

/**
 * The errors of a new password and its repeat (registration, reset; §5 password rule). Each says
 * what is wrong — too short, too long, a missing kind of character — rather than the rule the
 * form prints under the field anyway (the rule said twice tells nobody what is wrong); an empty
 * repeat is an error of its own.
 */
export function newPasswordErrors(
  password: string,
  repeat: string,
  t: TranslateFn,
): { password?: string; passwordConfirm?: string } {
  const problem = passwordProblem(password);
  const repeatProblem = passwordRepeatProblem(password, repeat);
  return {
    password:
      problem === 'required'
        ? t('login.newPasswordRequired')
        : problem === 'too_short'
          ? t('login.passwordTooShort', { min: PASSWORD_MIN_LENGTH })
          : problem === 'too_long'
            ? t('shell.tooLong', { max: PASSWORD_MAX_LENGTH, count: password.length })
            : problem === 'needs_mix'
              ? t('login.passwordNeedsMix')
              : undefined,
    passwordConfirm:
      repeatProblem === 'required'
        ? t('login.passwordConfirmRequired')
        : repeatProblem === 'mismatch'
          ? t('login.passwordMismatch')
          : undefined,
  };
}
