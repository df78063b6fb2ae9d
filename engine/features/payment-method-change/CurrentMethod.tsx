import { Fragment } from 'react';
import { useTranslation } from '../../core/translation';
import type { PaymentAccount, PaymentDetails } from '../../../schemas/generated/account-changes';
import { formatCardExpiry } from '../../domain/paymentMethodChange';
import { formatIban } from '../../domain/iban';

/** An account's facts, masked as the server sends them (§3): the rows of a `dl`. */
export function AccountFacts({ account }: { account: PaymentAccount }) {
  const { t } = useTranslation();
  const given = account ?? {};
  const rows: Array<[string, string | null | undefined]> = [
    ['debitAccountHolder', given.debitAccountHolder],
    // Grouped in fours as printed (§5's mask), so a narrow screen breaks it between groups.
    ['iban', given.iban && formatIban(given.iban)],
    ['bic', given.bic],
    ['debitAccountNumber', given.debitAccountNumber],
    ['debitBankCode', given.debitBankCode],
    ['debitBankName', given.debitBankName],
    ['ccCardholderName', given.ccCardholderName],
    ['ccNumber', given.ccNumber],
    ['ccExpiry', formatCardExpiry(given.ccExpiry)],
    ['paypalEmail', given.paypalEmail],
  ];
  return rows
    .filter((row): row is [string, string] => Boolean(row[1]))
    .map(([field, value]) => (
      <Fragment key={field}>
        <dt>{t(`payment-method-change.field.${field}`)}</dt>
        <dd className={field === 'iban' || field === 'ccNumber' ? 'account-number' : undefined}>{value}</dd>
      </Fragment>
    ));
}

/** §2 "Shows the current method": the method and its account, masked as the server sends it (§3). */
export function CurrentMethod({ details }: { details: PaymentDetails }) {
  const { t } = useTranslation();
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
        <AccountFacts account={details.account} />
      </dl>
    </section>
  );
}
