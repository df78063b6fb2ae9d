import { formatMoney } from '../../domain/money';
import { placeLines } from '../../domain/addressFormat';
import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';
import { detailVisibility, holidayServiceTypes } from '../../domain/capabilities';
import { formatDate } from '../../domain/dates';
import { lastDayOfTerm, withinTerm } from '../../domain/subscriptionTerm';
import { billingFrequencyLabel, expiryLabel, issueLabel, mixTypeLabel } from '../../account/labels';
import type { CapabilityContext } from '../../domain/capabilities';
import { Link } from '../../core/links';
import { useMayOpenRoute } from '../../core/featureRoutes';
import { href, ROUTES } from '../../domain/routeRefs';

function partyName(p: Subscription['goodsRecipient']): string {
  if (!p) return '';
  return p.company1 ?? [p.firstName, p.lastName1].filter(Boolean).join(' ');
}

/** The details block of §2 "Subscription detail" with its display rules (engine/domain detailVisibility). */
export function DetailsBlock({
  subscription: s,
  ctx,
}: {
  subscription: Subscription;
  ctx: CapabilityContext;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const show = detailVisibility(s, ctx);
  // Where the holiday service's dates and address are (a redirect's paper goes there meanwhile),
  // for whom the holiday service's capability rule lets in.
  const holidayDetails =
    useMayOpenRoute(ROUTES.holidayService, { id: s.id }) && holidayServiceTypes(s, ctx).length > 0;
  const currency = s.renewal?.orderCurrency ?? 'EUR';
  const rows: Array<[string, string]> = [];
  const add = (label: string, value: string | null | undefined) => {
    if (value) rows.push([t(label), value]);
  };
  add('subscription.orderNumber', s.orderNumber);
  add('subscription.publication', s.publicationName);
  add('subscription.edition', s.edition);
  // Labels from codes, in the screen's language (engine/account/labels.ts).
  add('subscription.mixType', mixTypeLabel(t, s.mixType, s.mixTypeDetails.mixTypeDesc));
  add('subscription.orderDate', formatDate(s.custOrderDate, lang));
  add('subscription.custOrderNumber', s.custOrderNumber);
  if (show.validFrom) add('subscription.validFrom', formatDate(s.validFromOnSaleDate, lang));
  if (show.validTo) add('subscription.validTo', formatDate(s.validToOnSaleDate, lang));
  // The last issue, else the end as a date in the screen's language: an end the portal moved (a
  // cancellation to a date, a renewal) has no words of the order system (engine/domain/lifecycle.ts).
  if (show.expiryIssue)
    add('subscription.expiryIssue', expiryLabel(t, s.renewal) || formatDate(s.validToOnSaleDate, lang));
  if (show.suspension && s.currentSuspension) {
    add('subscription.suspendedFrom', formatDate(s.currentSuspension.suspendedFromDate, lang));
    add(
      'subscription.suspendedTo',
      s.currentSuspension.suspendedToDate
        ? formatDate(s.currentSuspension.suspendedToDate, lang)
        : t('subscription.openEnded'),
    );
  }
  if (show.autoRenewalFields && s.renewal) {
    add('subscription.nextPaymentDate', formatDate(s.renewal.autoRenewalNextPaymentDate, lang));
    add(
      'subscription.nextPaymentAmount',
      formatMoney(s.renewal.autoRenewalNextPaymentAmount, currency, lang),
    );
    add(
      'subscription.paymentFrequency',
      billingFrequencyLabel(
        t,
        s.renewal.autoRenewalLastPaymentFrequency,
        s.renewal.autoRenewalLastPaymentFrequencyText,
      ),
    );
  }
  if (show.payment) {
    add(
      'subscription.paymentMethod',
      s.paymentDetails ? t(`subscription.paymentMethods.${s.paymentDetails.paymentMethod}`) : null,
    );
    // A change waiting for the end of the payment period (account-flows.md §4), as the payment page says.
    const pendingChange = s.paymentDetails?.pendingChange;
    if (pendingChange)
      add(
        'subscription.plannedPaymentMethod',
        t('subscription.plannedPaymentMethodValue', {
          method: t(`subscription.paymentMethods.${pendingChange.paymentMethod}`),
          date: formatDate(pendingChange.from, lang),
        }),
      );
    add(
      'subscription.billingFrequency',
      billingFrequencyLabel(t, s.billingFrequency, s.billingFrequencyShortDescription),
    );
    add(
      'subscription.paidAmount',
      formatMoney(s.currentCycleBundlePaidAmount ?? s.currentCyclePaidAmount, currency, lang),
    );
  }
  if (show.premium) add('subscription.premium', s.premiumDescription);
  if (s.plannedUpgrade)
    add(
      'subscription.plannedUpgrade',
      t('subscription.plannedUpgradeValue', {
        mixType: mixTypeLabel(t, s.plannedUpgrade.mixType, s.plannedUpgrade.mixTypeDesc),
        date: formatDate(s.plannedUpgrade.from, lang),
      }),
    );
  if (s.retentionOffer)
    add(
      'subscription.retentionOffer',
      t('subscription.retentionOfferValue', {
        percent: s.retentionOffer.discountPercent,
        date: formatDate(s.retentionOffer.until, lang),
      }),
    );
  if (show.goodsRecipient && s.goodsRecipient) {
    const g = s.goodsRecipient;
    add(
      'subscription.goodsRecipient',
      // Lines where the tenant's address-lines feature keeps them, street and number otherwise.
      [partyName(g), ...placeLines(g)].filter(Boolean).join(', '),
    );
  }
  // No issue after the subscription's end is its next one (subscriptionTerm.ts).
  if (s.nextIssue && withinTerm(s.nextIssue.dateOfFirstSale ?? '', lastDayOfTerm(s)))
    add(
      'subscription.nextIssue',
      [issueLabel(t, s.nextIssue), formatDate(s.nextIssue.dateOfFirstSale, lang)].filter(Boolean).join(' · '),
    );

  return (
    <section className="card details-block" aria-labelledby="details-title">
      <h2 id="details-title">{t('subscription.detailsHeading')}</h2>
      {show.holidayIndicator && s.activeHolidayServiceType && (
        <p className="holiday-indicator">
          <span aria-hidden="true">☀ </span>
          {t(`subscription.holidayActive.${s.activeHolidayServiceType}`)}
          {holidayDetails && (
            <>
              {' · '}
              <Link to={href(ROUTES.holidayService, { id: s.id })}>{t('subscription.holidayDetails')}</Link>
            </>
          )}
        </p>
      )}
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label} className="fact">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
