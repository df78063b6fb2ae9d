import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSetAtom } from 'jotai';
import { useNewSubscriptionFlag } from '../../account/newSubscription';
import { mailedLinkRefusal, useMailedLink } from '../../core/mailedLink';
import { usePortal } from '../../core/PortalContext';
import { resetSubscriptions, subscriptionsAtom } from '../../core/subscriptionsStore';
import { useTranslation } from '../../core/translation';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';

/** POST /link-subscription/confirm's answer (server/link-subscription/linkRoutes.ts). */
interface LinkConfirmation {
  orderNumber: string | null;
  bpNumber: string;
  maskedAccountEmail: string;
  /** The visitor's own session is the account that asked. */
  yours: boolean;
}

/** POST /link-subscription/confirm/details's answer: what the button would link, to which account. */
type LinkDetails = Omit<LinkConfirmation, 'yours'>;

/**
 * /link-subscription/confirm?t=… , anonymous: the link a confirm_email answer mailed to the
 * subscription's address on record (docs/architecture.md "Sign-in safety"). A mailed link's page
 * (engine/core/mailedLink.ts): it names the subscription and the account (masked) as the mail did,
 * and the button links the subscription to the account that asked. A visitor signed in as that
 * account gets the new-subscription badge (portal-core.md §4) and the way to the orders; anyone else
 * reads which account it went to, masked.
 */
export default function LinkConfirmScreen() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const link = useMailedLink<LinkConfirmation>('t');
  const { outcome, token } = link;
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const { mark: markNewSubscription } = useNewSubscriptionFlag();
  const [details, setDetails] = useState<LinkDetails | null>(null);
  const asking = outcome === null;
  const { refuse } = link;
  useEffect(() => {
    if (!asking) return;
    let current = true;
    api.post<LinkDetails>('/link-subscription/confirm/details', { token }).then(
      (answer) => current && setDetails(answer),
      (error: unknown) => current && refuse(error),
    );
    return () => {
      current = false;
    };
  }, [api, token, asking, refuse]);

  const confirm = () =>
    link.act(async () => {
      const confirmation = await api.post<LinkConfirmation>('/link-subscription/confirm', { token });
      if (confirmation.yours) {
        markNewSubscription(confirmation.orderNumber);
        setSubscriptions(resetSubscriptions);
      }
      return confirmation;
    });

  const ownAccount = outcome?.kind === 'done' && outcome.value.yours;
  return (
    <section className="account-change link-confirm" aria-labelledby="link-confirm-title">
      <h1 id="link-confirm-title">{t('link-subscription.confirmLink.heading')}</h1>
      {asking && !details && <Loading />}
      {asking && details && (
        <>
          <p>{t('link-subscription.confirmLink.intro')}</p>
          <p>
            {t('link-subscription.confirmLink.what', {
              what:
                details.orderNumber === null
                  ? t('link-subscription.confirmLink.byCustomerNumber', { bpNumber: details.bpNumber })
                  : t('link-subscription.confirmLink.bySubscription', { orderNumber: details.orderNumber }),
              maskedEmail: details.maskedAccountEmail,
            })}
          </p>
          <p className="muted">{t('link-subscription.confirmLink.note')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={link.sending} onClick={() => void confirm()}>
              {t('link-subscription.confirmLink.submit')}
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'done' && (
        <Alert variant="success">
          <p>
            {t('link-subscription.confirmLink.done', {
              maskedEmail: outcome.value.maskedAccountEmail,
            })}
          </p>
          {ownAccount && (
            <button type="button" className="button" onClick={() => navigate(href(ROUTES.orders))}>
              {t('link-subscription.toOrders')}
            </button>
          )}
        </Alert>
      )}
      {outcome?.kind === 'refused' && (
        <Alert variant="error">
          <p>
            {mailedLinkRefusal(t, outcome.error, {
              invalid: 'link-subscription.confirmLink.invalid',
              failed: 'link-subscription.confirmLink.failed',
              byCode: { already_linked: 'link-subscription.confirmLink.alreadyLinked' },
            })}
          </p>
        </Alert>
      )}
    </section>
  );
}
