import { useTranslation } from '../../core/translation';
import type { ReactNode } from 'react';
import { Dialog } from '../../ui/Dialog';
import { ContactPhone } from '../../core/ContactPhone';
import { hideImage } from './OfferList';
import type { CrossSellingOffer } from './paymentWatch';

/**
 * §2: "after a successful payment a cross-selling offer dialog": the product's title, picture and
 * link with its voucher code; §8: "voucher codes exhausted: contact phone support".
 */
export function CrossSelling({ offer }: { offer: CrossSellingOffer }) {
  const { t } = useTranslation();
  const image = offer.product.images[0]?.url;
  return (
    <section className="cross-selling" aria-label={t('account.crossSelling.title')}>
      <h3>{t('account.crossSelling.title')}</h3>
      <div className="cross-selling-body">
        {image && <img src={image} alt="" width={96} height={96} onError={hideImage} />}
        <div>
          <p className="cross-selling-product">{offer.product.title}</p>
          {offer.voucherCode ? (
            <p>
              {t('account.crossSelling.voucherLabel')}{' '}
              <strong className="voucher-code" data-testid="voucher-code">
                {offer.voucherCode}
              </strong>
            </p>
          ) : (
            <>
              <p>{t('account.crossSelling.vouchersExhausted')}</p>
              <ContactPhone />
            </>
          )}
          <a href={offer.product.url} target="_blank" rel="noopener noreferrer">
            {t('account.crossSelling.viewOffer', { title: offer.product.title })}
          </a>
        </div>
      </div>
    </section>
  );
}

/** The success dialog of an accepted offer (signed-in users), with the cross-selling offer when the payment brought one. */
export function OfferSuccessDialog({
  title,
  text,
  crossSelling,
  onClose,
  actions,
}: {
  title: string;
  text: string;
  crossSelling?: CrossSellingOffer;
  onClose: () => void;
  /** Extra buttons before the close button. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={title}
      variant="success"
      onClose={onClose}
      actions={
        <>
          {actions}
          <button type="button" className="button" onClick={onClose}>
            {t('shell.close')}
          </button>
        </>
      }
    >
      <p>{text}</p>
      {crossSelling && <CrossSelling offer={crossSelling} />}
    </Dialog>
  );
}

/** §2 "Without login, success shows an inline success screen instead of a dialog". */
export function OfferSuccessPanel({
  title,
  text,
  crossSelling,
  children,
}: {
  title: string;
  text: string;
  crossSelling?: CrossSellingOffer;
  children?: ReactNode;
}) {
  return (
    <section className="offer-success" aria-labelledby="offer-success-title" data-testid="offer-success">
      <h1 id="offer-success-title">{title}</h1>
      <p role="status">{text}</p>
      {crossSelling && <CrossSelling offer={crossSelling} />}
      {children}
    </section>
  );
}
