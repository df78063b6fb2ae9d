import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { FlowBackButton } from '../FlowBackButton';
import { useTranslation } from '../../core/translation';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Link } from '../../core/links';
import { useSetAtom } from 'jotai';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Recommendation } from '../../../schemas/generated/offers';
import { usePortal } from '../../core/PortalContext';
import { useRouteServed } from '../../core/featureRoutes';
import { href, ROUTES } from '../../domain/routeRefs';
import { resetSubscriptions, subscriptionsAtom } from '../../core/subscriptionsStore';
import type { CapabilityContext } from '../../domain/capabilities';
import { upgradeOffers } from '../../domain/offers';
import { formatDate } from '../../domain/dates';
import { mixTypeLabel } from '../labels';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { Loading } from '../../ui/Loading';
import { useCapabilityContext, useTenantSettings } from '../capabilityContext';
import { flowRefusal } from '../flowRefusal';
import { FlowScreen } from '../FlowScreen';
import { dataOf, useResource } from '../resource';
import { FlowHeader } from './FlowHeader';
import { useFlowReturn, useFlowSubscription, useWithoutLogin } from './flowNavigation';
import { OfferList } from './OfferList';
import { OfferSuccessDialog, OfferSuccessPanel } from './OfferSuccess';
import { OpenPayments } from './OpenPayments';
import { offerParams, offersApi } from './offersApi';
import { PaymentDialogs } from './PaymentDialogs';
import { isPaymentBusy, usePaymentFlow } from './usePaymentFlow';

/** The texts a renewal or upgrade page names itself with (each feature's own keys). */
export interface OfferFlowTexts {
  heading: string;
  intro: string;
  legend: string;
  submit: string;
  /** §8 "no options available" / "no-recommendations": no offer for this subscription. */
  empty: string;
  /** No offer because a renewal runs (the subscription's `renewedUntil`), with its end as `{{date}}`. */
  renewed?: string;
  /**
   * No offer while an upgrade is planned (the subscription's `plannedUpgrade`: no upgrade to a
   * format it will have is offered), with the format as `{{mixType}}` and its start as `{{date}}`.
   */
  planned?: string;
  /** The capability rule (§6) refuses the flow for this subscription. */
  notAllowed: string;
  successTitle: string;
  successText: string;
  /** An upgrade planned for the next billing period (§9 upgrade time NEXT_CYCLE): not changed yet. */
  successTextNextCycle?: string;
  /**
   * A cancelled subscription (AK) whose renewal revokes the cancellation (engine/domain/lifecycle.ts
   * acceptOffer): said beside the offers before the choice, and in the success text after it.
   */
  revokesCancellation?: string;
  successTextRevoked?: string;
}

/**
 * The subscription's renewal or upgrade page (account-flows.md §2 "Renewal and upgrade screens",
 * §4 "Offer acceptance", §8): the offers as radio cards and a submit button. Renewal starts with
 * nothing chosen (submit waits for a choice); upgrade is "the same without an empty option" — its
 * first offer is chosen — and lists only the upgrade times the tenant offers. Accepting applies
 * the offer at once or opens the payment popup (usePaymentFlow). Success is a dialog for signed-in
 * users and an inline screen without login (§2).
 */
export function OfferFlowScreen({
  source,
  texts,
  allowed,
}: {
  source: 'renewal' | 'upgrade';
  texts: OfferFlowTexts;
  allowed: (s: Subscription, ctx: CapabilityContext) => boolean;
}) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const ctx = useCapabilityContext();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);

  const titleId = `${source}-title`;
  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the shared notice, naming why where the rule tells, else the flow's own text.
      refusal={(s) => (allowed(s, ctx) ? null : (flowRefusal(source, s, ctx) ?? 'other'))}
      onClose={back}
      titleId={titleId}
      title={t(texts.heading)}
      className="offer-flow"
      unavailableTexts={{ other: t(texts.notAllowed) }}
      section={false}
    >
      {(s) => <OfferChoice subscription={s} source={source} texts={texts} titleId={titleId} onBack={back} />}
    </FlowScreen>
  );
}

function OfferChoice({
  subscription: s,
  source,
  texts,
  titleId,
  onBack,
}: {
  subscription: Subscription;
  source: 'renewal' | 'upgrade';
  texts: OfferFlowTexts;
  titleId: string;
  onBack: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const location = useLocation();
  const navigate = useNavigate();
  const withoutLogin = useWithoutLogin();
  const setSubscriptions = useSetAtom(subscriptionsAtom);
  const flow = usePaymentFlow();
  const contactServed = useRouteServed(ROUTES.contact);
  const params = offerParams(source, new URLSearchParams(location.search), tenant);
  // Texts come in the screen's language: useResource loads the offers again, quietly, when it changes.
  const key = `${s.id}/recommendations?${source}&${params.category}&${params.campaign ?? ''}`;
  const recommendations = useResource(key, (client) =>
    offersApi(client).recommendations(s.id, { source, ...params }),
  );
  // While they load again (a language switch) the previous offers stay, and so does the choice.
  const loaded = dataOf(recommendations.state);
  const offers = useMemo<Recommendation[]>(() => {
    if (!loaded) return [];
    return source === 'upgrade' ? upgradeOffers(loaded, tenant.upgrade.upgradeTimes) : loaded;
  }, [loaded, source, tenant.upgrade.upgradeTimes]);
  const [selected, setSelected] = useState('');
  // An offer waiting for its payment is not offered meanwhile (nor one to the same format): with an
  // open payment on screen, the page says there are no other offers, not none at all.
  const [paymentShown, setPaymentShown] = useState(false);
  // Upgrade: "the same without an empty option" — the first offer is chosen.
  useEffect(() => {
    if (source === 'upgrade' && offers.length > 0 && !offers.some((offer) => offer.id === selected))
      setSelected(offers[0].id);
  }, [source, offers, selected]);

  const chosen = offers.find((offer) => offer.id === selected);
  const busy = isPaymentBusy(flow.state);
  // What the accepted offer does, for its success text: the list may load again meanwhile.
  const [acceptedNextCycle, setAcceptedNextCycle] = useState(false);
  // The cancellation a renewal revokes (the subscription is cancelled, AK): what the page said
  // before the choice, kept for the success text once the subscription has moved on.
  const revokesCancellation = Boolean(texts.revokesCancellation) && s.orderStatus === 'AK';
  const [revokedCancellation, setRevokedCancellation] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) return;
    setAcceptedNextCycle(chosen.upgradeOption?.upgradeTime === 'NEXT_CYCLE');
    setRevokedCancellation(revokesCancellation);
    try {
      await flow.accept(
        () =>
          offersApi(api).accept(s.id, chosen.recommendationId, {
            source,
            ...params,
            ...(source === 'upgrade' && chosen.upgradeOption
              ? { upgradeTime: chosen.upgradeOption.upgradeTime }
              : {}),
          }),
        { openInNewTab: chosen.openInNewTab },
      );
    } catch (error) {
      flow.fail(error);
    }
  }

  function closeSuccess() {
    flow.reset();
    // The subscription changed: the orders list loads again, the subscription page shows it.
    setSubscriptions(resetSubscriptions);
    navigate(href(ROUTES.subscription, { id: s.id }));
  }

  const success = flow.state.step === 'success' ? flow.state : null;
  // No renewal is offered while one runs (engine/domain/lifecycle.ts isRenewed): the page says until when.
  // Nor an upgrade to the format of one planned (isUpgradeToHeldFormat): the page names the change.
  const renewedText =
    texts.renewed && s.renewedUntil
      ? t(texts.renewed, { date: formatDate(s.renewedUntil, i18n.language) })
      : texts.planned && s.plannedUpgrade
        ? t(texts.planned, {
            mixType: mixTypeLabel(t, s.plannedUpgrade.mixType, s.plannedUpgrade.mixTypeDesc),
            date: formatDate(s.plannedUpgrade.from, i18n.language),
          })
        : null;
  const successText = t(
    acceptedNextCycle && texts.successTextNextCycle
      ? texts.successTextNextCycle
      : revokedCancellation && texts.successTextRevoked
        ? texts.successTextRevoked
        : texts.successText,
    { title: s.displayName },
  );
  if (success && withoutLogin) {
    return (
      <OfferSuccessPanel title={t(texts.successTitle)} text={successText} crossSelling={success.crossSelling}>
        <div className="form-actions">
          <Link className="button button-secondary" to={href(ROUTES.subscription, { id: s.id })}>
            {t('account.flow.toSubscription')}
          </Link>
        </div>
      </OfferSuccessPanel>
    );
  }

  return (
    <section className="offer-flow" aria-labelledby={titleId}>
      <FlowHeader subscription={s} titleId={titleId} title={t(texts.heading)} />
      {/* "Choose …" only where there is something to choose. */}
      {!(recommendations.state.status === 'ready' && offers.length === 0) && <p>{t(texts.intro)}</p>}
      <OpenPayments
        subscriptionIds={[s.id]}
        hidden={busy}
        round={flow.state.step}
        onGivenUp={recommendations.reload}
        onShown={setPaymentShown}
      />
      {recommendations.state.status === 'loading' && !loaded && <Loading />}
      {recommendations.state.status === 'failed' && <ErrorDialog onClose={onBack} />}
      {recommendations.state.status === 'ready' && offers.length === 0 && (
        <>
          {/* An open payment keeps every offer back (engine/domain/lifecycle.ts isOfferPaymentOpen):
              its notice above says so and how to choose again. */}
          {!paymentShown && renewedText && (
            <Alert variant="info">
              <p>{renewedText}</p>
            </Alert>
          )}
          {!paymentShown && !renewedText && (
            <Alert variant="info">
              <p>{t(texts.empty)}</p>
              {contactServed && (
                <Link to={href(ROUTES.contact, {}, { subscriptionId: s.id })}>
                  {t('account.flow.contactUs')}
                </Link>
              )}
            </Alert>
          )}
          <FlowBackButton onClick={onBack} />
        </>
      )}
      {offers.length > 0 && revokesCancellation && !success && (
        <Alert variant="info">
          <p>{t(texts.revokesCancellation!)}</p>
        </Alert>
      )}
      {offers.length > 0 && (
        <form onSubmit={submit} noValidate>
          <OfferList
            offers={offers}
            selected={selected}
            onSelect={setSelected}
            legend={t(texts.legend)}
            name={`${source}-offer`}
            disabled={busy}
          />
          <PaymentDialogs flow={flow} />
          <div className="form-actions">
            <button type="submit" className="button" disabled={!chosen || busy}>
              {t(texts.submit)}
            </button>
            <button type="button" className="button button-secondary" onClick={onBack}>
              {t('account.flow.back')}
            </button>
          </div>
        </form>
      )}
      {success && (
        <OfferSuccessDialog
          title={t(texts.successTitle)}
          text={successText}
          crossSelling={success.crossSelling}
          onClose={closeSuccess}
        />
      )}
    </section>
  );
}
