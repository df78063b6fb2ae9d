/**
 * The subscriber's confirmation of a cancellation, in their language, with its date.
 * Placeholders: {tenant}, {subscription}, {orderNumber}, {date}, {issue}, {endOf} (the end of
 * the term or of the period paid for, as the date select named it); the texts are
 * server/texts/<locale>/cancellation.json.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';
import { formatDate } from '../../engine/domain/dates';

export function cancellationMail(
  locale: Locale,
  values: {
    tenant: string;
    subscription: string;
    orderNumber: string;
    effectiveDate: string;
    issueNumber: string | null;
    endOf?: 'paid_period' | 'term';
    exceptional: boolean;
    revocable: boolean;
  },
): { subject: string; text: string } {
  const t = textsIn(locale, 'cancellation');
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    date: formatDate(values.effectiveDate, locale),
    issue: values.issueNumber ? t('mail.issue', { issue: values.issueNumber }) : '',
    endOf: values.endOf ? t(`mail.endOf.${values.endOf}`) : '',
    exceptional: values.exceptional ? t('mail.exceptional') : '',
    revocation: values.revocable ? t('mail.revocation') : '',
  };
  return { subject: t('mail.subject', all), text: t('mail.body', all) };
}
