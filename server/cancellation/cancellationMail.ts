/**
 * The subscriber's confirmation of a cancellation, in their language, with its date in the
 * tenant's date style, as the page named it (account-flows.md §4 "Date display style from tenant":
 * engine/domain/cancellation.ts cancellationDateLabel decides for both).
 * Placeholders: {tenant}, {subscription}, {orderNumber}, {effective} (mail.effective.<kind> with
 * {date} and {issue}), {endOf} (the end of the term or of the period paid for, as the date select
 * named it); the texts are server/texts/<locale>/cancellation.json.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';
import { formatDate } from '../../engine/domain/dates';
import { cancellationDateLabel, type CancellationDateStyle } from '../../engine/domain/cancellation';

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
    dateStyle: CancellationDateStyle;
  },
): { subject: string; text: string } {
  const t = textsIn(locale, 'cancellation');
  // The date the cancellation takes effect on is always named: a style of issue numbers alone
  // names the issue (the page's words), which a mail read later does not make a date of.
  const label = cancellationDateLabel(
    { issueNumber: values.issueNumber, dateOfFirstSale: values.effectiveDate },
    values.dateStyle,
  );
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    effective: t(`mail.effective.${label.kind}`, {
      date: formatDate(values.effectiveDate, locale),
      issue: values.issueNumber ?? '',
    }),
    endOf: values.endOf ? t(`mail.endOf.${values.endOf}`) : '',
    exceptional: values.exceptional ? t('mail.exceptional') : '',
    revocation: values.revocable ? t('mail.revocation') : '',
  };
  return { subject: t('mail.subject', all), text: t('mail.body', all) };
}
