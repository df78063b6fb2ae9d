import { placeLines } from '../../domain/addressFormat';
import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useSearchParams } from 'react-router';
import { Link } from '../../core/links';
import { href, ROUTES } from '../../domain/routeRefs';
import type { BusinessPartner } from '../../../schemas/generated/business-partner';
import type { Role } from '../../../schemas/generated/subscription';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { can } from '../../domain/capabilities';
import { useCapabilityContext } from '../../account/capabilityContext';
import { Badge } from '../../ui/Badge';
import { useResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { DataExportSection } from '../../account/DataExportSection';
import { usePortal } from '../../core/PortalContext';
import { DATA_EXPORT_LINK_PARAM, dataExportRoute, offersDataExport } from '../../domain/dataExport';

type Entry = BusinessPartner & {
  own: boolean;
  subscriptions: Array<{
    subscriptionId: string;
    orderNumber: string;
    displayName: string;
    publication: string;
    roles: Role[];
  }>;
};

const ROLES: Role[] = ['AG', 'WE', 'RE', 'LV'];

function name(p: BusinessPartner): string {
  return p.company1 ?? [p.firstName, p.lastName1].filter(Boolean).join(' ');
}

/**
 * /business-partners: the account's business partners (search, role filter, bp number, the
 * subscriptions with role badges, and the change-address button per subscription). On a tenant
 * without the account details page this is also where "Download my data" lives
 * (engine/domain/dataExport.ts), the mailed link opening it with `dataExport`.
 */
export default function BusinessPartnersScreen() {
  const { t } = useTranslation();
  const { state: subscriptions } = useSubscriptions();
  const capabilityContext = useCapabilityContext();
  // §6 address change (flag, licence manager, externally managed), read from the same rule as the
  // detail page; the button leads to the subscription's addresses, where each partner is edited.
  const mayChangeAddress = (subscriptionId: string) => {
    const subscription = subscriptions.subscriptions.find((candidate) => candidate.id === subscriptionId);
    return Boolean(subscription && can('addressChange', subscription, capabilityContext));
  };
  const partners = useResource('/business-partners', (api) => api.get<Entry[]>('/business-partners'));
  const [query, setQuery] = useState('');
  const [role, setRole] = useState<Role | ''>('');
  const { config } = usePortal();
  const [search, setSearch] = useSearchParams();
  const exportHere =
    offersDataExport(config.tenant) && dataExportRoute(config.tenant).id === ROUTES.businessPartners.id;
  const q = query.trim().toLocaleLowerCase();
  const visibleOf = (items: Entry[]) =>
    items
      .map((p) => ({
        ...p,
        subscriptions: role ? p.subscriptions.filter((s) => s.roles.includes(role)) : p.subscriptions,
      }))
      .filter((p) => !role || p.subscriptions.length > 0)
      .filter(
        (p) =>
          !q ||
          [
            name(p),
            p.bpNumber,
            p.city ?? '',
            p.zipcode ?? '',
            // What an entry shows is what a visitor searches by: the title and its order number.
            ...p.subscriptions.flatMap((s) => [s.displayName, s.orderNumber]),
          ].some((v) => v.toLocaleLowerCase().includes(q)),
      );

  return (
    <section aria-labelledby="bp-title" className="business-partners">
      <h1 id="bp-title">{t('business-partners.heading')}</h1>
      <div className="orders-toolbar">
        <div className="form-field search-field">
          <label htmlFor="bp-search">{t('business-partners.search')}</label>
          <input id="bp-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <div className="form-field">
          <label htmlFor="bp-role">{t('business-partners.roleFilter')}</label>
          <select id="bp-role" value={role} onChange={(e) => setRole(e.target.value as Role | '')}>
            <option value="">{t('business-partners.allRoles')}</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`account.role.${r}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ResourceView
        resource={partners}
        errorKey="business-partners.loadingError"
        emptyKey="business-partners.empty"
        isEmpty={(items) => noEntries(visibleOf(items))}
      >
        {(items) => (
          <ul className="card-list">
            {visibleOf(items).map((p) => (
              <li key={p.bpNumber} className="card bp-card" aria-labelledby={`bp-${p.bpNumber}`}>
                <h2 id={`bp-${p.bpNumber}`}>{name(p)}</h2>
                <dl className="facts">
                  <dt>{t('business-partners.bpNumber')}</dt>
                  <dd>{p.bpNumber}</dd>
                  <dt>{t('business-partners.address')}</dt>
                  <dd>{placeLines(p).join(', ')}</dd>
                  {p.emailAddress && (
                    <>
                      <dt>{t('business-partners.email')}</dt>
                      <dd>{p.emailAddress}</dd>
                    </>
                  )}
                </dl>
                <h3>{t('business-partners.subscriptions')}</h3>
                <ul className="plain-list">
                  {p.subscriptions.map((s) => (
                    <li key={s.subscriptionId} className="bp-subscription">
                      <span>
                        {s.displayName} <span className="muted">({s.orderNumber})</span>
                      </span>
                      <span className="badges">
                        {s.roles.map((r) => (
                          <Badge key={r} tone="info">
                            {t(`account.role.${r}`)}
                          </Badge>
                        ))}
                      </span>
                      {/* Only a partner the account speaks for: the subscription's addresses page
                          edits those alone (a gift's recipient keeps his own address). */}
                      {p.own && mayChangeAddress(s.subscriptionId) && (
                        <Link
                          className="link-button"
                          to={href(ROUTES.subscriptionAddresses, { id: s.subscriptionId })}
                          aria-label={t('business-partners.changeAddressFor', { title: s.displayName })}
                        >
                          {t('business-partners.changeAddress')}
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </ResourceView>
      {exportHere && (
        <DataExportSection
          token={search.get(DATA_EXPORT_LINK_PARAM)}
          onTokenDone={() => {
            const rest = new URLSearchParams(search);
            rest.delete(DATA_EXPORT_LINK_PARAM);
            setSearch(rest, { replace: true });
          }}
        />
      )}
    </section>
  );
}
