import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { ECardAnswer } from '../../../schemas/generated/e-card-answer';
import { useTenantSettings } from '../../account/capabilityContext';
import { usePortal } from '../../core/PortalContext';
import {
  ECARD_MESSAGE_MAX_LENGTH,
  ECARD_NAME_MAX_LENGTH,
  earliestSendAt,
  eCardCategories,
  eCardProblems,
  templatesIn,
  type ECardField,
  type ECardProblem,
} from '../../domain/eCard';
import { eCardApi } from './eCardApi';
import { useResource } from '../../account/resource';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { failureOf, PROBLEM_TEXT, type ECardOutcome } from './eCardOutcomes';

export type ECardValues = {
  from: string;
  to: string;
  toEmail: string;
  message: string;
  timing: 'now' | 'timed';
  sendAt: string;
};

export type ECardSent = { outcome: ECardOutcome; answer?: ECardAnswer; refusal?: unknown };

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input wants it. */
export function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The next whole minute one day ahead (account-flows.md §9): the input works in minutes. */
function useEarliest(): Date {
  return useMemo(() => {
    const at = earliestSendAt(new Date());
    at.setSeconds(0, 0);
    at.setMinutes(at.getMinutes() + 1);
    return at;
  }, []);
}

/** The tenant's templates, the category they are filtered by and the one chosen, in words. */
function useTemplates() {
  const { t } = useTranslation();
  const { config } = usePortal();
  const templates = useTenantSettings().eCard.templates;
  const [category, setCategory] = useState('');
  const [template, setTemplate] = useState(templates[0]?.name ?? '');
  const categoryLabel = (code: string) => {
    const key = `e-card.category.${code}`;
    const label = t(key);
    return label === key ? code : label;
  };
  // The card sent is the one the picker shows chosen: a category that hides the chosen design
  // chooses its own first one (the preview and the mail follow it).
  const chooseCategory = (code: string) => {
    setCategory(code);
    const inCategory = templatesIn(templates, code || undefined);
    if (!inCategory.some((tpl) => tpl.name === template)) setTemplate(inCategory[0]?.name ?? '');
  };
  return {
    templates,
    categories: eCardCategories(templates),
    category,
    setCategory: chooseCategory,
    template,
    setTemplate,
    shown: templatesIn(templates, category || undefined),
    chosen: templates.find((tpl) => tpl.name === template),
    categoryLabel,
    apiBase: `${config.basePath.replace(/\/$/, '')}/api`,
  };
}

/**
 * The e-card form's state and its sending (account-flows.md §2 "E-card", §5, §9): the template,
 * the values and their problems (engine/domain/eCard.ts, the server's the same), the answer, and
 * the user's timed cards still waiting (docs/subscribers.md "E-cards").
 */
export function useECardForm(subscriptionId: string | undefined) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const picker = useTemplates();
  const { templates, template, chosen } = picker;
  const [values, setValues] = useState<ECardValues>({
    from: '',
    to: '',
    toEmail: '',
    message: '',
    timing: 'now',
    sendAt: '',
  });
  const [problems, setProblems] = useState<Partial<Record<ECardField, ECardProblem>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ECardSent | null>(null);
  const { ref, refused } = useFocusFirstError();
  const scheduled = useResource('/e-cards', (client) => eCardApi(client).scheduled());
  const earliest = useEarliest();
  const set = (field: Exclude<keyof ECardValues, 'timing'>) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    // Editing a field clears its message; the rest stay until the next try.
    setProblems(({ [field]: _gone, ...rest }) => rest);
  };
  const chooseTiming = (timing: ECardValues['timing']) =>
    setValues((v) =>
      timing === 'timed' ? { ...v, timing, sendAt: v.sendAt || localInputValue(earliest) } : { ...v, timing },
    );
  const errorOf = (field: ECardField) =>
    problems[field] === 'invalid' && field === 'toEmail'
      ? // An address is "not valid", as every other form of the portal says it.
        t('account.entry.invalidEmail')
      : problems[field]
        ? t(PROBLEM_TEXT[problems[field]!], {
            max: field === 'message' ? ECARD_MESSAGE_MAX_LENGTH : ECARD_NAME_MAX_LENGTH,
          })
        : undefined;

  async function send(event: FormEvent) {
    event.preventDefault();
    const sendAt =
      values.timing === 'timed' && values.sendAt
        ? new Date(values.sendAt).toISOString()
        : values.timing === 'timed'
          ? ''
          : null;
    const found = eCardProblems({ template, ...values, sendAt }, templates, new Date());
    setProblems(found);
    setOutcome(null);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    setBusy(true);
    try {
      const answer = await eCardApi(api).send({
        from: values.from.trim(),
        to: values.to.trim(),
        toEmail: values.toEmail.trim(),
        message: values.message.trim(),
        sendAt: sendAt || null,
        template: { name: template, category: chosen?.category },
        ...(subscriptionId ? { subscriptionId } : {}),
      });
      setOutcome({ outcome: answer.status === 'sent' ? 'e-card:sent' : 'e-card:scheduled', answer });
      if (answer.status === 'scheduled') scheduled.reload();
      setValues((v) => ({ ...v, to: '', toEmail: '', message: '', timing: 'now', sendAt: '' }));
    } catch (error) {
      const failure = failureOf(error);
      if (failure.fields) {
        setProblems(failure.fields);
        refused();
      }
      setOutcome({ outcome: failure.outcome, refusal: error });
    } finally {
      setBusy(false);
    }
  }

  return {
    picker,
    values,
    set,
    chooseTiming,
    earliest,
    errorOf,
    busy,
    outcome,
    setOutcome,
    scheduled,
    send,
    formRef: ref,
  };
}

export type ECardFormModel = ReturnType<typeof useECardForm>;
