import { useTranslation } from '../../core/translation';
import { useLocation, useParams } from 'react-router';
import { Link } from '../../core/links';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { can, isBundleMaster, isHiddenBundleComponent } from '../../domain/capabilities';
import { href, ROUTES } from '../../domain/routeRefs';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { usePortal } from '../../core/PortalContext';
import { storedResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { useCapabilityContext } from '../../account/capabilityContext';
import { SubscriptionCard } from '../../account/SubscriptionCard';
import { useFileDownload } from '../../account/useFileDownload';
import { DownloadDialogs } from '../../account/DownloadDialogs';

/**
 * §2 "Bundle group page": the subscriptions of a bundle; a licences button if multi-user licences are
 * supported. Its cards are the orders page's, download button included (§2 "Orders page": on a card
 * of an active subscription that supports download).
 */
export default function BundleGroupScreen() {
  const { t } = useTranslation();
  const { bundleNumber = '' } = useParams();
  const location = useLocation();
  const { config } = usePortal();
  const ctx = useCapabilityContext();
  const { state, reload } = useSubscriptions();
  const downloads = useFileDownload();
  const all = state.subscriptions;
  const members = all
    .filter((s) => s.bundle?.bundleNumber === bundleNumber && !isHiddenBundleComponent(s, all, ctx))
    .sort((a, b) => Number(isBundleMaster(b)) - Number(isBundleMaster(a)));
  const master = members.find(isBundleMaster) ?? members[0];
  // portal-core.md §1: the back link is hidden by the tenant setting or the query parameter.
  const hideBack =
    config.tenant.embedding.hideBackToOverview ||
    new URLSearchParams(location.search).has('hideBackToOverview');

  return (
    <section aria-labelledby="bundle-title" className="bundle-group-page">
      {!hideBack && (
        <Link className="back-link" to="/orders">
          ‹ {t('bundle-group.back')}
        </Link>
      )}
      <h1 id="bundle-title">
        {master ? t('bundle-group.heading', { title: master.displayName }) : t('bundle-group.headingPlain')}
      </h1>
      <ResourceView
        resource={storedResource(state.status, members, reload)}
        errorKey="bundle-group.loadingError"
        emptyKey="bundle-group.empty"
        isEmpty={noEntries}
      >
        {() => (
          <ul className="card-list">
            {members.map((s) => (
              <SubscriptionCard
                key={s.id}
                subscription={s}
                onDownload={(subscription) => void downloads.newestIssue(subscription.id)}
                downloading={downloads.waitingFor(s.id)}
              />
            ))}
          </ul>
        )}
      </ResourceView>
      {/* The licences page of engine/features/multi-user-licenses, by its capability rule (portal-core.md §6: flag, blacklist, multi-licence and manager or ordering party). */}
      {master &&
        isFeatureOn(config.tenant, 'multi-user-licenses', master.publication) &&
        can('multiUserLicenses', master, ctx) && (
          <p>
            <Link
              className="button button-secondary"
              to={href(ROUTES.subscriptionLicenses, { id: master.id })}
            >
              {t('bundle-group.licenses')}
            </Link>
          </p>
        )}
      {downloads.outcome && <DownloadDialogs outcome={downloads.outcome} onClose={downloads.dismiss} />}
    </section>
  );
}
