import type { SyntheticEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { Recommendation } from '../../../schemas/generated/offers';
import { isBundleOffer } from '../../domain/offers';
import { Badge } from '../../ui/Badge';
import { RadioGroup, type RadioOption } from '../../ui/fields';
import { formatMoney } from '../../domain/money';

/**
 * The offers of a renewal, upgrade or retention choice as radio cards (account-flows.md §2, §3
 * Recommendation): picture and description, then the article (text, price, "bundle" for offer
 * types BD and BU, §9), the product (title, image, short description, price) or the upgrade option
 * (text, when it takes effect, surcharge, next payment). `noneLabel` adds a first "no offer" choice
 * (bulk renewal); without it nothing is chosen until the visitor picks (renewal) unless the caller
 * preselects (upgrade). A picture-card RadioGroup of the field kit (its fieldset and legend, the
 * radios' name and keyboard), styled by the offer cards' own classes.
 */
export function OfferList({
  offers,
  selected,
  onSelect,
  legend,
  name,
  noneLabel,
  disabled,
}: {
  offers: readonly Recommendation[];
  /** The chosen offer's id, '' for none. */
  selected: string;
  onSelect: (id: string) => void;
  legend: string;
  /** The radio group's name (unique on the page). */
  name: string;
  noneLabel?: string;
  disabled?: boolean;
}) {
  const none: RadioOption<string>[] = noneLabel
    ? [{ value: '', label: <span>{noneLabel}</span>, className: 'offer-card offer-none' }]
    : [];
  const cards = offers.map((offer) => ({
    value: offer.id,
    label: <OfferDetails offer={offer} />,
    className: `offer-card${selected === offer.id ? ' offer-selected' : ''}`,
    testId: 'offer-card',
  }));
  return (
    <RadioGroup
      bare
      className="offer-list"
      legend={legend}
      name={name}
      options={[...none, ...cards]}
      value={selected}
      onChange={onSelect}
      disabled={disabled}
    />
  );
}

/** A picture that does not load is left out rather than shown as a broken frame (they are decoration, alt ""). */
export const hideImage = (event: SyntheticEvent<HTMLImageElement>) => {
  event.currentTarget.hidden = true;
};

export function OfferDetails({ offer }: { offer: Recommendation }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { article, product, upgradeOption } = offer;
  // The product's picture once: the server may send the offer's picture as both.
  const productImage = product?.images[0]?.url !== offer.pictureUrl ? product?.images[0]?.url : undefined;
  return (
    <span className="offer-details">
      {offer.pictureUrl && (
        <img
          className="offer-picture"
          src={offer.pictureUrl}
          alt=""
          width={96}
          height={96}
          onError={hideImage}
        />
      )}
      <span className="offer-text">
        <span className="offer-description">{offer.description}</span>
        {article && (
          <span className="offer-line">
            <span>{article.articleText}</span>
            {isBundleOffer(article.offerType) && <Badge tone="info">{t('account.offers.bundle')}</Badge>}
            <span className="offer-price">{formatMoney(article.price, article.currencyKey, lang)}</span>
          </span>
        )}
        {product && (
          <span className="offer-product">
            {productImage && <img src={productImage} alt="" width={64} height={64} onError={hideImage} />}
            <span>
              <span className="offer-product-title">{product.title}</span>
              {product.attributes.shortDesc && (
                <span className="muted offer-short">{product.attributes.shortDesc}</span>
              )}
              <span className="offer-price">{formatMoney(product.price, product.currency, lang)}</span>
            </span>
          </span>
        )}
        {upgradeOption && (
          <span className="offer-upgrade">
            <span>{upgradeOption.text}</span>
            <span className="muted">{t(`account.offers.upgradeTime.${upgradeOption.upgradeTime}`)}</span>
            <span>
              {t('account.offers.surcharge', {
                amount: formatMoney(upgradeOption.surchargeAmount, upgradeOption.surchargeCurrency, lang),
              })}
            </span>
            <span>
              {t('account.offers.nextPayment', {
                amount: formatMoney(upgradeOption.nextPaymentAmount, upgradeOption.nextPaymentCurrency, lang),
              })}
            </span>
          </span>
        )}
      </span>
    </span>
  );
}
