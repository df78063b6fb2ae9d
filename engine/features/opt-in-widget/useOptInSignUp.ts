import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { OptInWidgetProvider } from '../../../schemas/generated/tenant';
import { usePortal } from '../../core/PortalContext';
import { ApiError } from '../../domain/apiError';
import {
  OPT_IN_WIDGET_NAME_MAX_LENGTH,
  optInWidgetProblems,
  type OptInWidgetDraft,
  type WidgetProblem,
} from '../../domain/widgets';
import { portalLocale } from '../../domain/language';
import { optInWidgetApi } from './optInWidgetApi';
import { useFocusFirstError } from '../../ui/focusFirstError';

type TextField = 'salutationCode' | 'firstName' | 'lastName1' | 'email';
export type SignUpState = 'form' | 'busy' | 'sent' | 'exhausted' | 'limited' | 'failed';

/**
 * The opt-in widget's sign-up (account-flows.md §2 "Opt-in widget", §5, §8): the values and their
 * problems (engine/domain/widgets.ts, the server's the same), the sending in the page's language,
 * and its ending: sent, voucher codes exhausted, rate limited (with when to try again) or failed.
 */
export function useOptInSignUp(provider: OptInWidgetProvider) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const [values, setValues] = useState<OptInWidgetDraft>({
    salutationCode: '',
    firstName: '',
    lastName1: '',
    email: '',
    optIn: false,
  });
  const [problems, setProblems] = useState<Partial<Record<keyof OptInWidgetDraft, WidgetProblem>>>({});
  const [state, setState] = useState<SignUpState>('form');
  const [limitedBy, setLimitedBy] = useState<unknown>();
  const { ref: formRef, refused } = useFocusFirstError();
  // Editing a field clears its message; the rest stay until the next try.
  const clear = (field: keyof OptInWidgetDraft) => setProblems(({ [field]: _gone, ...rest }) => rest);
  const set = (field: TextField) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    clear(field);
  };
  const setOptIn = (optIn: boolean) => {
    setValues((v) => ({ ...v, optIn }));
    clear('optIn');
  };
  const message = (field: keyof OptInWidgetDraft) => {
    const problem = problems[field];
    if (!problem) return undefined;
    if (field === 'optIn') return t('opt-in-widget.consentRequired');
    if (problem === 'required') return t('account.entry.required');
    if (problem === 'too_long') return t('account.entry.tooLong', { max: OPT_IN_WIDGET_NAME_MAX_LENGTH });
    return t('account.entry.invalidEmail');
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = optInWidgetProblems(values);
    setProblems(found);
    // The focus goes to the first field the form refused, where its message is said.
    if (Object.keys(found).length > 0) return refused();
    setState('busy');
    try {
      const locale = portalLocale(i18n.language);
      await optInWidgetApi(api).signUp({
        salutationCode: values.salutationCode,
        firstName: values.firstName.trim(),
        lastName1: values.lastName1.trim(),
        email: values.email.trim(),
        optIn: values.optIn,
        provider: provider.code,
        ...(provider.voucherCodeKey ? { voucherCodeKey: provider.voucherCodeKey } : {}),
        locale,
      });
      setState('sent');
    } catch (error) {
      const code = error instanceof ApiError ? error.code : '';
      setLimitedBy(error);
      setState(
        code === 'voucher_codes_exhausted' ? 'exhausted' : code === 'rate_limited' ? 'limited' : 'failed',
      );
    }
  }

  return { values, problems, set, setOptIn, message, state, setState, limitedBy, submit, formRef };
}

export type OptInSignUpModel = ReturnType<typeof useOptInSignUp>;
