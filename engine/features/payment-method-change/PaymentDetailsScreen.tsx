import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { Loading } from '../../ui/Loading';
import { CurrentMethod } from './CurrentMethod';
import {
  ChangeActions,
  LoadErrorDialog,
  MethodChange,
  NoChangeNote,
  PendingChangeNotice,
  SavedDialog,
} from './PaymentDetailsParts';
import { usePaymentDetails, type PaymentDetailsModel } from './usePaymentDetails';

/**
 * /subscriptions/{id}/payment-details (account-flows.md §2 "Payment details", §4 "Payment method
 * change", §8): the current method, then — on "change" — the methods the tenant allows from it
 * (the current one only when the tenant lists it under itself: an update), each with its form or
 * the payment popup; save and cancel; a success dialog that says changes take effect at the end of
 * the payment period. A failed load opens the loading-error dialog with back; a failed update the
 * generic dialog. Its state and calls are usePaymentDetails', its parts PaymentDetailsParts'.
 */
export default function PaymentDetailsScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const model = usePaymentDetails(id);
  const refusal = useFlowRefusal('paymentMethodChange', loadedSubscription(subscription));
  const { details, data, saved, setSaved } = model;

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="payment-title"
      title={t('payment-method-change.heading')}
      className="account-change payment-details"
      keepWhileLoading
    >
      {(s) => (
        <>
          {details.state.status === 'failed' && <LoadErrorDialog onBack={back} />}
          {!data && details.state.status === 'loading' && <Loading />}
          {data && <PaymentDetailsBody model={model} subscription={s} onBack={back} />}
          {saved && <SavedDialog onClose={() => setSaved(false)} />}
        </>
      )}
    </FlowScreen>
  );
}

/** The loaded details: the current method, a pending change, and the way to a change. */
function PaymentDetailsBody({
  model,
  subscription: s,
  onBack,
}: {
  model: PaymentDetailsModel;
  subscription: Subscription;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { data, offered, editing, setEditing } = model;
  if (!data) return null;
  return (
    <>
      <CurrentMethod details={data} />
      {data.pendingChange && <PendingChangeNotice pendingChange={data.pendingChange} subscription={s} />}
      <p className="muted">{t('payment-method-change.effectNote')}</p>
      {offered.length === 0 && <NoChangeNote subscriptionId={s.id} />}
      {offered.length > 0 && !editing && <ChangeActions onChange={() => setEditing(true)} onBack={onBack} />}
      {offered.length > 0 && editing && <MethodChange model={model} subscriptionId={s.id} />}
    </>
  );
}
