import { useTranslation } from '../../core/translation';
import { useNavigate, useParams } from 'react-router';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { href, ROUTES } from '../../domain/routeRefs';
import { Alert } from '../../ui/Alert';
import { usePortal } from '../../core/PortalContext';
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
  const { api } = usePortal();
  const subscription = useFlowSubscription(id);
  const partners = useResource<SubscriptionPartner[]>(`${id}/business-partners`, (api) =>
    addressApi(api).partners(id),
  );
  const toAddresses = () => navigate(href(ROUTES.subscriptionAddresses, { id }));
  const refusal = useFlowRefusal('addressChange', loadedSubscription(subscription));

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={toAddresses}
      titleId="address-change-title"
      title={t('address-change.editHeading')}
      className="account-change address-change"
      keepWhileLoading
    >
      {(s) => (
        <>
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
                    // In place, so the form and what was typed into it stay.
                    onChangedMeanwhile={() => addressApi(api).partners(id).then(partners.replace)}
                  />
                </>
              );
            }}
          </ResourceView>
        </>
      )}
    </FlowScreen>
  );
}
