import { Link } from '../core/links';
import { FlowBackButton } from './FlowBackButton';
import type { Subscription } from '../../schemas/generated/subscription';
import { href, ROUTES } from '../domain/routeRefs';
import { useTranslation } from '../core/translation';
import { useRouteServed } from '../core/featureRoutes';
import type { Capability } from '../domain/capabilities';
import { Alert } from '../ui/Alert';
import { FallbackContact } from '../core/FallbackContact';
import { useCapabilityContext } from './capabilityContext';
import { FlowHeader } from './offers/FlowHeader';
import { useFlowReturn } from './offers/flowNavigation';
import { CONTACT_HELPS, flowRefusal, type FlowRefusal } from './flowRefusal';

/**
 * The refusal of a flow page for its subscription (account-flows.md §6): null while the flow's
 * capability allows the loaded subscription, else why not (engine/account/flowRefusal.ts).
 * Flow screens call it after loading the subscription and render FlowUnavailable when it is set.
 */
export function useFlowRefusal(capability: Capability, s: Subscription | undefined): FlowRefusal | null {
  const ctx = useCapabilityContext();
  return s ? flowRefusal(capability, s, ctx) : null;
}

/**
 * A flow page opened (by URL, a bookmark, a link in an e-mail, the back button) for a subscription
 * its capability rule refuses: the flow's heading with the subscription, a notice that says so —
 * naming why where the rule tells (`account.flow.unavailable.<reason>`), or the flow's own sentence
 * for that reason — the flow's back button (to the subscription page, or to the entry page a
 * `returnTo` names) and, where the customer service can help, the contact page; a flow not offered
 * for the subscription also names the tenant's fallback e-mail and phone. Instead of the
 * page's calls failing with 403/409 into the generic error dialog.
 */
export function FlowUnavailable({
  subscription: s,
  refusal,
  titleId,
  title,
  className,
  texts = {},
}: {
  subscription: Subscription;
  refusal: FlowRefusal;
  titleId: string;
  title: string;
  /** The flow's section classes, so the page keeps its layout. */
  className?: string;
  /** A flow's own sentences (translated) for some reasons, e.g. renewal.notAllowed for `other`. */
  texts?: Partial<Record<FlowRefusal, string>>;
}) {
  const { t } = useTranslation();
  // Back where the flow's back goes: the entry page a `returnTo` names (§2), else the subscription.
  const { back } = useFlowReturn(s.id);
  const contactServed = useRouteServed(ROUTES.contact);
  const contact = CONTACT_HELPS.has(refusal) && contactServed;
  const own = texts[refusal];
  return (
    <section
      className={['flow-unavailable', className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      data-testid="flow-unavailable"
    >
      <FlowHeader subscription={s} titleId={titleId} title={title} />
      <Alert variant="info">
        {/* A flow's own sentence says it all; else the general one and the reason the rule tells. */}
        {own ? (
          <p>{own}</p>
        ) : (
          <>
            <p>
              <strong>{t('account.flow.unavailable.title')}</strong>
            </p>
            <p>{t(`account.flow.unavailable.${refusal}`, { title: s.displayName })}</p>
          </>
        )}
        {contact && (
          <p>
            <Link to={href(ROUTES.contact, {}, { subscriptionId: s.id })}>{t('account.flow.contactUs')}</Link>
          </p>
        )}
        {/* account-flows.md §1: a flow switched off (here for the publication or mix type) names the
            tenant's fallback e-mail and phone, as the notice of a feature the tenant has off does. */}
        {refusal === 'notOffered' && <FallbackContact />}
      </Alert>
      <FlowBackButton onClick={back} />
    </section>
  );
}
