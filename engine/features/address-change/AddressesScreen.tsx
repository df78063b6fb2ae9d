import { useEffect, useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Link } from '../../core/links';
import type { SubscriptionPartner } from '../../../schemas/generated/account-changes';
import { PostalAddressView } from '../../account/changes/PostalAddressView';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { useResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { href, ROUTES } from '../../domain/routeRefs';
import { sortRoles } from '../../domain/addressChange';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { formatDate } from '../../domain/dates';
import { addressApi, partnerName, type SavedChange } from './addressApi';

/**
 * /subscriptions/{id}/addresses (account-flows.md §2 "Addresses"): one block per business partner
 * of the subscription — its roles, its address and contact details, the edit button (only for the
 * partners the account speaks for) and a dialog listing the changes planned for later days. After a
 * save the page says when the change applies (§9: it may take up to 10 minutes to show).
 */
export default function AddressesScreen() {
  const { t, i18n } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const partners = useResource<SubscriptionPartner[]>(`${id}/business-partners`, (api) =>
    addressApi(api).partners(id),
  );
  const [saved, setSaved] = useState<SavedChange | null>(
    () => (location.state as { saved?: SavedChange } | null)?.saved ?? null,
  );
  // The notice is this visit's: the browser keeps a history entry's state across reloads, so it is
  // dropped from the entry once read (a reload then shows the addresses as they are, §9).
  const navigate = useNavigate();
  const hasSavedState = Boolean((location.state as { saved?: SavedChange } | null)?.saved);
  useEffect(() => {
    if (hasSavedState)
      void navigate(
        { pathname: location.pathname, search: location.search, hash: location.hash },
        { replace: true, state: null },
      );
  }, [hasSavedState, navigate, location.pathname, location.search, location.hash]);
  const [future, setFuture] = useState<SubscriptionPartner | null>(null);
  const refusal = useFlowRefusal('addressChange', loadedSubscription(subscription));

  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="addresses-title"
      title={t('address-change.heading')}
      className="account-change addresses"
      keepWhileLoading
    >
      {(s) => (
        <>
          {saved && (
            <Alert variant="success" onClose={() => setSaved(null)} closeLabel={t('shell.close')}>
              <p>
                {saved.validFrom
                  ? t('address-change.savedFrom', { date: formatDate(saved.validFrom, i18n.language) })
                  : t('address-change.savedAsap')}
              </p>
            </Alert>
          )}
          <ResourceView
            resource={partners}
            errorKey="address-change.loadError"
            emptyKey="address-change.empty"
            isEmpty={noEntries}
          >
            {(list) => (
              <ul className="card-list partner-list">
                {list.map((partner) => (
                  <PartnerBlock
                    key={partner.bpNumber}
                    subscriptionId={s.id}
                    partner={partner}
                    onShowFuture={() => setFuture(partner)}
                  />
                ))}
              </ul>
            )}
          </ResourceView>
          <div className="form-actions">
            <button type="button" className="button button-secondary" onClick={back}>
              {t('account.flow.back')}
            </button>
          </div>
          {future && (
            <Dialog
              title={t('address-change.future.title', { name: partnerName(future) })}
              onClose={() => setFuture(null)}
              actions={
                <button type="button" className="button" onClick={() => setFuture(null)}>
                  {t('shell.close')}
                </button>
              }
            >
              <ul className="plain-list future-addresses" data-testid="future-addresses">
                {future.futureAddresses.map((entry) => (
                  <li key={entry.validFrom}>
                    <h3>
                      {t('address-change.future.from', { date: formatDate(entry.validFrom, i18n.language) })}
                    </h3>
                    <PostalAddressView address={entry.address} />
                  </li>
                ))}
              </ul>
            </Dialog>
          )}
        </>
      )}
    </FlowScreen>
  );
}

function PartnerBlock({
  subscriptionId,
  partner,
  onShowFuture,
}: {
  subscriptionId: string;
  partner: SubscriptionPartner;
  onShowFuture: () => void;
}) {
  const { t, i18n } = useTranslation();
  const name = partnerName(partner);
  const headingId = `partner-${partner.bpNumber}`;
  return (
    <li className="card partner-card" aria-labelledby={headingId} data-testid="partner-card">
      <h2 id={headingId}>{name}</h2>
      <p className="badges" aria-label={t('address-change.roles')}>
        {sortRoles(partner.roles).map((role) => (
          <Badge key={role} tone="info">
            {t(`account.role.${role}`)}
          </Badge>
        ))}
      </p>
      <PostalAddressView address={partner.address} />
      <dl className="facts">
        <dt>{t('address-change.bpNumber')}</dt>
        <dd>{partner.bpNumber}</dd>
        {partner.emailAddress && (
          <>
            <dt>{t('account.address.emailAddress')}</dt>
            <dd>{partner.emailAddress}</dd>
          </>
        )}
        {partner.phoneNumber && (
          <>
            <dt>{t('account.address.phoneNumber')}</dt>
            <dd>{partner.phoneNumber}</dd>
          </>
        )}
        {partner.dateOfBirth && (
          <>
            <dt>{t('account.address.dateOfBirth')}</dt>
            <dd>{formatDate(partner.dateOfBirth, i18n.language)}</dd>
          </>
        )}
      </dl>
      <div className="card-actions">
        {partner.editable && (
          <Link
            className="button button-secondary"
            to={href(ROUTES.subscriptionBusinessPartner, { id: subscriptionId, bpNumber: partner.bpNumber })}
            aria-label={t('address-change.editFor', { name })}
          >
            {t('address-change.edit')}
          </Link>
        )}
        {partner.futureAddresses.length > 0 && (
          <button type="button" className="button button-secondary" onClick={onShowFuture}>
            {t('address-change.future.show', { count: partner.futureAddresses.length })}
          </button>
        )}
      </div>
    </li>
  );
}
