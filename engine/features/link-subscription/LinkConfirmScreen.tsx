import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSetAtom } from 'jotai';
import { useNewSubscriptionFlag } from '../../account/newSubscription';
import { ApiError } from '../../core/apiClient';
import { isDeadLinkAnswer } from '../../domain/deadLink';
import { usePortal } from '../../core/PortalContext';
import { resetSubscriptions, subscriptionsAtom } from '../../core/subscriptionsStore';
import { tooManyText } from '../../core/tooManyText';
import { useTranslation, type TranslateFn } from '../../core/translation';
import { isRateLimited } from '../../domain/retryAfter';
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

// A refusal keeps the answer as it came, worded at each render: a language switch words it anew.
type Outcome = { kind: 'done'; confirmation: LinkConfirmation } | { kind: 'refused'; error: unknown } | null;

/** Why the link cannot (any more) link, in the screen's language. */
function refusalText(t: TranslateFn, error: unknown): string {
  return isRateLimited(error)
    ? tooManyText(t, error)
    : isDeadLinkAnswer(error)
      ? t('link-subscription.confirmLink.invalid')
      : error instanceof ApiError && error.code === 'already_linked'
        ? t('link-subscription.confirmLink.alreadyLinked')
        : t('link-subscription.confirmLink.failed');
}

/**
 * /link-subscription/confirm?t=… , anonymous: the link a confirm_email answer mailed to the
 * subscription's address on record (docs/architecture.md "Sign-in safety"). Opening it changes
 * nothing (a mail scanner follows links): the page names the subscription and the account (masked)
 * as the mail did, and the button links the subscription to the account that asked. A visitor
 * signed in as that account gets the new-subscription badge (portal-core.md §4)
 * and the way to the orders; anyone else reads which account it went to, masked.
 */
export default function LinkConfirmScreen() {
  const { t } = useTranslation();
  const { api } = usePortal();
  const navigate = useNavigate();
  const location = useLocation();
  const token = new URLSearchParams(location.search).get('t') ?? '';
  // A confirmed link leaves the address without its spent token and keeps its outcome in the
  // history entry, so that a reload shows what happened, not a button that can only fail.
  const confirmedBefore = (location.state as { confirmed?: LinkConfirmation } | null)?.confirmed;
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const { mark: markNewSubscription } = useNewSubscriptionFlag();
  const [outcome, setOutcome] = useState<Outcome>(
    confirmedBefore
      ? { kind: 'done', confirmation: confirmedBefore }
      : token
        ? null
        : { kind: 'refused', error: new ApiError(401, 'invalid_token', 'no token') },
  );
  const [sending, setSending] = useState(false);
  const [details, setDetails] = useState<LinkDetails | null>(null);
  const asking = outcome === null;
  useEffect(() => {
    if (!asking) return;
    let current = true;
    api.post<LinkDetails>('/link-subscription/confirm/details', { token }).then(
      (answer) => current && setDetails(answer),
      (error: unknown) => current && setOutcome({ kind: 'refused', error }),
    );
    return () => {
      current = false;
    };
  }, [api, token, asking, t]);

  async function confirm() {
    setSending(true);
    try {
      const confirmation = await api.post<LinkConfirmation>('/link-subscription/confirm', { token });
      if (confirmation.yours) {
        markNewSubscription(confirmation.orderNumber);
        setSubscriptions(resetSubscriptions);
      }
      setOutcome({ kind: 'done', confirmation });
      navigate(location.pathname, { replace: true, state: { confirmed: confirmation } });
    } catch (error) {
      setOutcome({ kind: 'refused', error });
    } finally {
      setSending(false);
    }
  }

  const ownAccount = outcome?.kind === 'done' && outcome.confirmation.yours;
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
            <button type="button" className="button" disabled={sending} onClick={() => void confirm()}>
              {t('link-subscription.confirmLink.submit')}
            </button>
          </div>
        </>
      )}
      {outcome?.kind === 'done' && (
        <Alert variant="success">
          <p>
            {t('link-subscription.confirmLink.done', {
              maskedEmail: outcome.confirmation.maskedAccountEmail,
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
          <p>{refusalText(t, outcome.error)}</p>
        </Alert>
      )}
    </section>
  );
}
