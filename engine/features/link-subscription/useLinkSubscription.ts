import { useEffect, useState, type FormEvent } from 'react';
import { useSetAtom } from 'jotai';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Publication } from '../../../schemas/generated/subscription-page';
import type { LinkSubscriptionResult } from '../../../schemas/generated/link-subscription-result';
import { useTenantSettings } from '../../account/capabilityContext';
import { useNewSubscriptionFlag } from '../../account/newSubscription';
import { dataOf, useResource } from '../../account/resource';
import { ApiError } from '../../core/apiClient';
import { usePortal } from '../../core/PortalContext';
import { subscriptionsAtom, resetSubscriptions } from '../../core/subscriptionsStore';
import { tooManyText } from '../../core/tooManyText';
import { useTranslation, type TranslateFn } from '../../core/translation';
import { linkFieldErrors, linkFields, type LinkField } from '../../domain/linkSubscription';
import { isRateLimited } from '../../domain/retryAfter';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { useFormState } from '../../ui/formState';
import { linkOutcomeKey, linkOutcomeOf, type LinkOutcome } from './linkOutcomes';

export interface LinkValues {
  publication: string;
  orderNumber: string;
  bpNumber: string;
  lastName: string;
  zipcode: string;
  gift: '' | 'yes' | 'no';
}

const EMPTY: LinkValues = {
  publication: '',
  orderNumber: '',
  bpNumber: '',
  lastName: '',
  zipcode: '',
  gift: '',
};

type Fields = ReturnType<typeof linkFields>;
type Settings = Parameters<typeof linkFields>[0];

/** The body of POST /subscriptions: the fields asked for, trimmed, and the role the gift answer names. */
function linkPayload(values: LinkValues, fields: Fields, settings: Settings) {
  const preferredRole = fields.giftQuestion
    ? values.gift === 'yes'
      ? 'WE'
      : values.gift === 'no'
        ? 'AG'
        : undefined
    : settings.linkSubscription?.preferredRole;
  return {
    ...(fields.publication && values.publication ? { publication: values.publication } : {}),
    ...(fields.orderNumber ? { orderNumber: values.orderNumber.trim() } : {}),
    ...(fields.bpNumber ? { bpNumber: values.bpNumber.trim() } : {}),
    ...(fields.lastName ? { lastName: values.lastName.trim() } : {}),
    zipcode: values.zipcode.trim(),
    ...(preferredRole ? { preferredRole } : {}),
  };
}

/** The message the form shows for a result of the server (§8), null for the dialog of the link mailed. */
function linkMessage(t: TranslateFn, r: LinkSubscriptionResult, values: LinkValues): string | null {
  const named: LinkOutcome = linkOutcomeOf(r);
  if (named === 'link:confirm_email') return null;
  return t(linkOutcomeKey(named), {
    orderNumber: r.orderNumber ?? values.orderNumber,
    maskedEmail: r.maskedEmail ?? '',
    bpNumber: r.bpNumber ?? values.bpNumber,
    ssoId: r.ssoId ?? '',
  });
}

/**
 * The state and the calls of /link-subscription (portal-core.md §2, §4 result statuses, §5 field
 * rules, §8 messages): the fields the tenant asks for, their check, POST /subscriptions with the
 * answers it may give (a link mailed to the address on record, a result to name), and the linked
 * subscription.
 */
export function useLinkSubscription() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const settings = useTenantSettings();
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const { mark: markNewSubscription } = useNewSubscriptionFlag();
  const [byBp, setByBp] = useState(false);
  const form = useFormState<LinkValues, LinkField>(EMPTY);
  const { values, setErrors } = form;
  const [result, setResult] = useState<LinkSubscriptionResult | null>(null);
  const [linked, setLinked] = useState<Subscription | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  // What was refused, kept as it came and worded at each render: a language switch words it anew.
  const [refusal, setRefusal] = useState<unknown>(null);
  const tooMany = refusal ? tooManyText(t, refusal) : null;
  const [problems, setProblems] = useState<Partial<Record<LinkField, string>>>({});
  // Worded anew at a language switch; on submit at once, so the focus finds the first error.
  useEffect(() => setErrors(linkErrorTexts(problems, t)), [problems, t, setErrors]);
  const [sending, setSending] = useState(false);
  const { ref, refused } = useFocusFirstError();
  const fields = linkFields(settings, byBp);
  // The publication choice, when the tenant asks for one; without the list the field stays empty.
  const publicationList = useResource<Publication[]>(`publications?${fields.publication}`, (client) =>
    fields.publication ? client.get<Publication[]>('/publications') : Promise.resolve([]),
  );
  const publications = dataOf(publicationList.state) ?? [];

  const set =
    <K extends keyof LinkValues>(key: K) =>
    (value: LinkValues[K]) =>
      form.set(key, value);
  const payload = () => linkPayload(values, fields, settings);

  async function submit() {
    setSending(true);
    setRefusal(null);
    try {
      const subscription = await api.post<Subscription | null>('/subscriptions', payload());
      // §4: the order number is stored and the new-subscription flag drives the menu badge.
      markNewSubscription(subscription?.orderNumber ?? null);
      setSubscriptions(resetSubscriptions);
      setResult(null);
      setLinked(subscription);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setResult((error.details ?? { status: 'unknown' }) as LinkSubscriptionResult);
      } else if (isRateLimited(error)) {
        // A 429 is no "something went wrong": it says when to try again.
        setRefusal(error);
      } else {
        setFailed(true);
      }
    } finally {
      setSending(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = linkFieldErrors(settings, { ...payload(), byBpNumber: byBp });
    setProblems(found);
    if (Object.keys(found).length > 0) {
      setErrors(linkErrorTexts(found, t));
      refused();
      return;
    }
    void submit();
  }

  const message = result ? linkMessage(t, result, values) : null;

  return {
    byBp,
    setByBp,
    form,
    fields,
    publications,
    set,
    result,
    setResult,
    linked,
    failed,
    setFailed,
    tooMany,
    sending,
    submit,
    onSubmit,
    formRef: ref,
    message,
  };
}

export type LinkSubscription = ReturnType<typeof useLinkSubscription>;

function linkErrorTexts(problems: Partial<Record<LinkField, string>>, t: TranslateFn) {
  const messages: Partial<Record<LinkField, string>> = {};
  for (const [field, code] of Object.entries(problems))
    messages[field as LinkField] = t(`link-subscription.error.${code}`);
  return messages;
}
