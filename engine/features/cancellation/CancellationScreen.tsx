import { useState } from 'react';
import { FlowBackButton } from '../../account/FlowBackButton';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import { Link } from '../../core/links';
import type { CancelAnswer } from '../../../schemas/generated/offers';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useCapabilityContext, useTenantSettings } from '../../account/capabilityContext';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { href, ROUTES } from '../../domain/routeRefs';
import { cancellationStart } from '../../domain/cancellation';
import { canRevokeCancellation } from '../../domain/capabilities';
import { Alert } from '../../ui/Alert';
import { formatDate } from '../../domain/dates';
import { CancellationForm } from './CancellationForm';

/**
 * /subscriptions/{id}/cancellation (account-flows.md §2 "Cancellation screen", §4, §8): the
 * subscription's header, then by cancellationStart (engine/domain/cancellation.ts) the
 * already-cancelled notice, the refusal for an externally managed subscription naming its order
 * number, or the form. After a cancellation the subscription is loaded again and shows as
 * cancelled, with the date the cancellation takes effect.
 */
export default function CancellationScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const [done, setDone] = useState<CancelAnswer | null>(null);
  // A refusal of the cancel call itself (403 externally_managed) overrides the start state.
  const [refusedOrderNumber, setRefusedOrderNumber] = useState<string | null>(null);
  const startOf = (s: Subscription) =>
    refusedOrderNumber !== null ? 'externally_managed' : cancellationStart(s);
  const refusal = useFlowRefusal('cancellation', loadedSubscription(subscription));

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the already-cancelled and externally-managed notices stay; only where
      // the form would open for a subscription the rule refuses (not cancelable, not offered for its
      // publication) does the page say so instead of its calls failing. After this page's own
      // cancellation (done) the subscription is no longer cancelable: the success notice shows.
      refusal={(s) => (startOf(s) === 'form' && !done ? refusal : null)}
      onClose={back}
      titleId="cancellation-title"
      title={t('cancellation.heading')}
      className="cancellation"
      keepWhileLoading
    >
      {(s) => {
        const start = startOf(s);
        return (
          <>
            {start === 'already_cancelled' && (
              <CancelledNotice subscription={s} answer={done} onBack={back} />
            )}
            {start === 'externally_managed' && (
              <>
                <Alert variant="error">
                  <p>
                    {t('cancellation.externallyManaged', {
                      orderNumber: refusedOrderNumber || s.orderNumber,
                    })}
                  </p>
                </Alert>
                <FlowBackButton onClick={back} />
              </>
            )}
            {start === 'form' && (
              <CancellationForm
                subscription={s}
                onBack={back}
                onCancelled={(answer) => {
                  setDone(answer);
                  subscription.reload();
                }}
                onAlreadyCancelled={subscription.reload}
                onExternallyManaged={(orderNumber) => setRefusedOrderNumber(orderNumber ?? s.orderNumber)}
              />
            )}
          </>
        );
      }}
    </FlowScreen>
  );
}

/**
 * §4 "Already cancelled or inactive subscription: success notice" — after this page's own
 * cancellation it names the date it takes effect; with the revocation link (§2) where the tenant
 * offers one.
 */
function CancelledNotice({
  subscription: s,
  answer,
  onBack,
}: {
  subscription: Subscription;
  answer: CancelAnswer | null;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ctx = useCapabilityContext();
  const tenant = useTenantSettings();
  return (
    <>
      <Alert variant="success">
        <p>
          {answer
            ? t('cancellation.cancelledOn', { date: formatDate(answer.effectiveDate, i18n.language) })
            : t('cancellation.alreadyCancelled')}
        </p>
        {canRevokeCancellation(s, ctx) && (
          <Link
            to={href(
              ROUTES.contact,
              {},
              { subscriptionId: s.id, activity: tenant.cancellation.revocationContactActivity },
            )}
          >
            {t('cancellation.revoke')}
          </Link>
        )}
      </Alert>
      <FlowBackButton onClick={onBack} />
    </>
  );
}
