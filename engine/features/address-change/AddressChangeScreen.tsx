import { useTranslation } from '../../core/translation';
import { useNavigate, useParams } from 'react-router';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import { FlowUnavailable, useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowHeader } from '../../account/offers/FlowHeader';
import { useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { AddressChangeForm } from './AddressChangeForm';
import { addressApi, partnerName } from './addressApi';

/**
 * /subscriptions/{id}/business-partners/{bpNumber} (account-flows.md §2 "Addresses", §5): the edit
 * page of one business partner of the subscription; a partner the account does not speak for, or
 * one the subscription does not have, gets a notice and the way back to the addresses.
 */
export default function AddressChangeScreen() {
  const { t } = useTranslation();
  const { id = '', bpNumber = '' } = useParams();
  const navigate = useNavigate();
  const subscription = useFlowSubscription(id);
  const partners = useResource<SubscriptionPartner[]>(`${id}/business-partners`, (api) =>
    addressApi(api).partners(id),
  );
  const toAddresses = () => navigate(href(ROUTES.subscriptionAddresses, { id }));
  const refusal = useFlowRefusal(
    'addressChange',
    subscription.state.status === 'ready' ? subscription.state.data : undefined,
  );

  if (subscription.state.status === 'failed') return <ErrorDialog onClose={toAddresses} />;
  if (subscription.state.status === 'loading' && !subscription.state.previous) return <Loading />;
  const s = subscription.state.status === 'ready' ? subscription.state.data : subscription.state.previous!;
  // account-flows.md §6: the rule the button and the server go by refuses this subscription.
  if (refusal) {
    return (
      <FlowUnavailable
        subscription={s}
        refusal={refusal}
        titleId="address-change-title"
        title={t('address-change.editHeading')}
        className="account-change address-change"
      />
    );
  }

  return (
    <section className="account-change address-change" aria-labelledby="address-change-title">
      <FlowHeader subscription={s} titleId="address-change-title" title={t('address-change.editHeading')} />
      <ResourceView resource={partners} errorKey="address-change.loadError">
        {(list) => {
          const partner = list.find((entry) => entry.bpNumber === bpNumber);
          if (!partner || !partner.editable) {
            return (
              <>
                <Alert variant="info">
                  <p>{t(partner ? 'address-change.notEditable' : 'address-change.notFound')}</p>
                </Alert>
                <div className="form-actions">
                  <button type="button" className="button button-secondary" onClick={toAddresses}>
                    {t('address-change.toAddresses')}
                  </button>
                </div>
              </>
            );
          }
          return (
            <>
              <p className="partner-of">{t('address-change.editFor', { name: partnerName(partner) })}</p>
              <AddressChangeForm
                key={partner.bpNumber}
                subscription={s}
                partner={partner}
                onDone={toAddresses}
              />
            </>
          );
        }}
      </ResourceView>
    </section>
  );
}
