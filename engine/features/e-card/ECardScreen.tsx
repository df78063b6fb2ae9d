import type { ReactNode } from 'react';
import { useTranslation } from '../../core/translation';
import { useParams } from 'react-router';
import { Link } from '../../core/links';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { FlowHeader } from '../../account/offers/FlowHeader';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { href, ROUTES } from '../../domain/routeRefs';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { ScheduledECards } from './ScheduledECards';
import { ECardFields, ECardOutcomeAlert, ECardPreview, TemplatePicker } from './ECardFormParts';
import { NoticeInView } from '../../ui/NoticeInView';
import { useECardForm } from './useECardForm';
import './eCard.css';

/**
 * /e-card and /subscriptions/{id}/e-card (account-flows.md §2 "E-card", §5, §9): the template
 * category filter, the templates with their images and a preview, from, to, recipient e-mail,
 * message, and "send now" or a time at least one day ahead (the datetime input, disabled for now).
 * The server checks the same rules (engine/domain/eCard.ts) and the daily cap.
 */
export default function ECardScreen() {
  const { id } = useParams();
  return id ? <ECardForSubscription id={id} /> : <ECardForm />;
}

function ECardForSubscription({ id }: { id: string }) {
  const { t } = useTranslation();
  const subscription = useFlowSubscription(id);
  const { back } = useFlowReturn(id);
  const refusal = useFlowRefusal('eCard', loadedSubscription(subscription));
  const title = t('e-card.heading');
  return (
    <FlowScreen
      subscription={subscription}
      // account-flows.md §6: the rule the button and the server go by refuses this subscription.
      refusal={refusal}
      onClose={back}
      titleId="e-card-title"
      title={title}
      section={false}
    >
      {(s) => (
        <ECardForm
          header={<FlowHeader subscription={s} titleId="e-card-title" title={title} />}
          subscriptionId={id}
        />
      )}
    </FlowScreen>
  );
}

/** The form (§2 "E-card"); its state and sending are useECardForm's, its parts ECardFormParts'. */
function ECardForm({ header, subscriptionId }: { header?: ReactNode; subscriptionId?: string }) {
  const { t } = useTranslation();
  const form = useECardForm(subscriptionId);
  const { values, outcome, setOutcome } = form;
  return (
    <section className="e-card" aria-labelledby="e-card-title">
      {header ?? <h1 id="e-card-title">{t('e-card.heading')}</h1>}
      <p>{t('e-card.intro')}</p>
      {outcome && outcome.outcome !== 'e-card:failed' && (
        <NoticeInView shown={outcome}>
          <ECardOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
        </NoticeInView>
      )}
      <form ref={form.formRef} className="e-card-form" onSubmit={form.send} noValidate>
        <TemplatePicker form={form} />
        <ECardFields form={form} />
        <ECardPreview form={form} />
        <div className="form-actions">
          <button type="submit" className="button" disabled={form.busy}>
            {values.timing === 'timed' ? t('e-card.schedule') : t('e-card.send')}
          </button>
          {subscriptionId && (
            <Link className="button button-secondary" to={href(ROUTES.subscription, { id: subscriptionId })}>
              {t('account.flow.back')}
            </Link>
          )}
        </div>
      </form>
      <ScheduledECards cards={form.scheduled} categoryLabel={form.picker.categoryLabel} />
      {outcome?.outcome === 'e-card:failed' && <ErrorDialog onClose={() => setOutcome(null)} />}
    </section>
  );
}
