import { Fragment } from 'react';
import { useTranslation } from '../../core/translation';
import type { PaymentDetails } from '../../../schemas/generated/account-changes';
import { formatCardExpiry } from '../../domain/paymentMethodChange';
import { formatIban } from '../../domain/iban';

/** §2 "Shows the current method": the method and its account, masked as the server sends it (§3). */
export function CurrentMethod({ details }: { details: PaymentDetails }) {
  const { t } = useTranslation();
  const account = details.account ?? {};
  const rows: Array<[string, string | null | undefined]> = [
    ['debitAccountHolder', account.debitAccountHolder],
    // Grouped in fours as printed (§5's mask), so a narrow screen breaks it between groups.
    ['iban', account.iban && formatIban(account.iban)],
    ['bic', account.bic],
    ['debitAccountNumber', account.debitAccountNumber],
    ['debitBankCode', account.debitBankCode],
    ['debitBankName', account.debitBankName],
    ['ccCardholderName', account.ccCardholderName],
    ['ccNumber', account.ccNumber],
    ['ccExpiry', formatCardExpiry(account.ccExpiry)],
    ['paypalEmail', account.paypalEmail],
  ];
  return (
    <section
      className="card payment-current"
      aria-labelledby="payment-current-title"
      data-testid="payment-current"
    >
      <h2 id="payment-current-title">{t('payment-method-change.current.heading')}</h2>
      <dl className="facts">
        <dt>{t('payment-method-change.current.method')}</dt>
        <dd>{t(`payment-method-change.method.${details.paymentMethod}`)}</dd>
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([field, value]) => (
            <Fragment key={field}>
              <dt>{t(`payment-method-change.field.${field}`)}</dt>
              <dd className={field === 'iban' || field === 'ccNumber' ? 'account-number' : undefined}>
                {value}
              </dd>
            </Fragment>
          ))}
      </dl>
    </section>
  );
}
