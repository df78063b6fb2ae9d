import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../core/translation';
import { tooManyText } from '../../core/tooManyText';
import { Link, useParams } from 'react-router';
import type { ECardAnswer } from '../../../schemas/generated/e-card-answer';
import { useTenantSettings } from '../../account/capabilityContext';
import { useFlowRefusal } from '../../account/FlowUnavailable';
import { FlowScreen, loadedSubscription } from '../../account/FlowScreen';
import { FlowHeader } from '../../account/offers/FlowHeader';
import { useFlowReturn, useFlowSubscription } from '../../account/offers/flowNavigation';
import { usePortal } from '../../core/PortalContext';
import { href, ROUTES } from '../../domain/routeRefs';
import {
  ECARD_DAILY_CAP,
  ECARD_MESSAGE_MAX_LENGTH,
  ECARD_NAME_MAX_LENGTH,
  earliestSendAt,
  eCardCategories,
  eCardImageUrl,
  eCardProblems,
  templatesIn,
  type ECardField,
  type ECardProblem,
} from '../../domain/eCard';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { InputField, RadioGroup, SelectField, TextAreaField } from '../../ui/fields';
import { eCardApi } from './eCardApi';
import { ScheduledECards } from './ScheduledECards';
import { useResource } from '../../account/resource';
import { failureOf, OUTCOME_TEXT, PROBLEM_TEXT, type ECardOutcome } from './eCardOutcomes';
import './eCard.css';

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input wants it. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

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

type Values = {
  from: string;
  to: string;
  toEmail: string;
  message: string;
  timing: 'now' | 'timed';
  sendAt: string;
};

function ECardForm({ header, subscriptionId }: { header?: ReactNode; subscriptionId?: string }) {
  const { t, i18n } = useTranslation();
  const { api, config } = usePortal();
  const tenant = useTenantSettings();
  const templates = tenant.eCard.templates;
  const categories = eCardCategories(templates);
  const [category, setCategory] = useState('');
  const [template, setTemplate] = useState(templates[0]?.name ?? '');
  const [values, setValues] = useState<Values>({
    from: '',
    to: '',
    toEmail: '',
    message: '',
    timing: 'now',
    sendAt: '',
  });
  const [problems, setProblems] = useState<Partial<Record<ECardField, ECardProblem>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{
    outcome: ECardOutcome;
    answer?: ECardAnswer;
    refusal?: unknown;
  } | null>(null);
  // The user's timed cards still waiting, with "Do not send" (docs/subscribers.md "E-cards").
  const scheduled = useResource('/e-cards', (client) => eCardApi(client).scheduled());
  const earliest = useMemo(() => {
    // The next whole minute one day ahead: the input works in minutes.
    const at = earliestSendAt(new Date());
    at.setSeconds(0, 0);
    at.setMinutes(at.getMinutes() + 1);
    return at;
  }, []);
  const apiBase = `${config.basePath.replace(/\/$/, '')}/api`;
  const shown = templatesIn(templates, category || undefined);
  const chosen = templates.find((tpl) => tpl.name === template);
  const categoryLabel = (code: string) => {
    const key = `e-card.category.${code}`;
    const label = t(key);
    return label === key ? code : label;
  };
  const set = (field: Exclude<keyof Values, 'timing'>) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    // Editing a field clears its message; the rest stay until the next try.
    setProblems(({ [field]: _gone, ...rest }) => rest);
  };
  const errorOf = (field: ECardField) =>
    problems[field]
      ? t(PROBLEM_TEXT[problems[field]!], {
          max: field === 'message' ? ECARD_MESSAGE_MAX_LENGTH : ECARD_NAME_MAX_LENGTH,
        })
      : undefined;

  async function send(event: FormEvent) {
    event.preventDefault();
    const sendAt =
      values.timing === 'timed' && values.sendAt
        ? new Date(values.sendAt).toISOString()
        : values.timing === 'timed'
          ? ''
          : null;
    const found = eCardProblems({ template, ...values, sendAt }, templates, new Date());
    setProblems(found);
    setOutcome(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const answer = await eCardApi(api).send({
        from: values.from.trim(),
        to: values.to.trim(),
        toEmail: values.toEmail.trim(),
        message: values.message.trim(),
        sendAt: sendAt || null,
        template: { name: template, category: chosen?.category },
        ...(subscriptionId ? { subscriptionId } : {}),
      });
      setOutcome({ outcome: answer.status === 'sent' ? 'e-card:sent' : 'e-card:scheduled', answer });
      if (answer.status === 'scheduled') scheduled.reload();
      setValues((v) => ({ ...v, to: '', toEmail: '', message: '', timing: 'now', sendAt: '' }));
    } catch (error) {
      const failure = failureOf(error);
      if (failure.fields) setProblems(failure.fields);
      setOutcome({ outcome: failure.outcome, refusal: error });
    } finally {
      setBusy(false);
    }
  }

  const when = outcome?.answer
    ? new Date(outcome.answer.sendAt).toLocaleString(i18n.language, { dateStyle: 'long', timeStyle: 'short' })
    : '';
  return (
    <section className="e-card" aria-labelledby="e-card-title">
      {header ?? <h1 id="e-card-title">{t('e-card.heading')}</h1>}
      <p>{t('e-card.intro')}</p>
      {outcome && outcome.outcome !== 'e-card:failed' && (
        <Alert
          variant={outcome.answer ? 'success' : outcome.outcome === 'e-card:limit' ? 'warning' : 'error'}
          onClose={() => setOutcome(null)}
          closeLabel={t('shell.close')}
        >
          <p>
            {outcome.outcome === 'e-card:limit'
              ? tooManyText(t, outcome.refusal, t(OUTCOME_TEXT[outcome.outcome], { max: ECARD_DAILY_CAP }))
              : t(OUTCOME_TEXT[outcome.outcome], { when, max: ECARD_DAILY_CAP })}
          </p>
        </Alert>
      )}
      <form className="e-card-form" onSubmit={send} noValidate>
        <fieldset className="e-card-templates">
          <legend>{t('e-card.templates')}</legend>
          {categories.length > 1 && (
            <SelectField
              label={t('e-card.category')}
              value={category}
              onChange={(e) => setCategory(e.target.value)}
            >
              <option value="">{t('e-card.allCategories')}</option>
              {categories.map((code) => (
                <option key={code} value={code}>
                  {categoryLabel(code)}
                </option>
              ))}
            </SelectField>
          )}
          <ul className="e-card-template-list">
            {shown.map((tpl) => (
              <li key={tpl.name}>
                <label className={`e-card-template${tpl.name === template ? ' is-chosen' : ''}`}>
                  <input
                    type="radio"
                    name="template"
                    value={tpl.name}
                    checked={tpl.name === template}
                    onChange={() => setTemplate(tpl.name)}
                  />
                  <img
                    src={eCardImageUrl(tpl.previewImageUrl, apiBase)}
                    alt=""
                    width={300}
                    height={200}
                    loading="lazy"
                  />
                  <span>
                    {t('e-card.templateLabel', {
                      category: categoryLabel(tpl.category),
                      number: templatesIn(templates, tpl.category).indexOf(tpl) + 1,
                    })}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          {problems.template && <p className="form-error">{errorOf('template')}</p>}
        </fieldset>
        <div className="e-card-fields">
          <InputField
            label={t('e-card.from')}
            required
            value={values.from}
            onChange={set('from')}
            maxChars={ECARD_NAME_MAX_LENGTH}
            autoComplete="name"
            error={errorOf('from')}
          />
          <InputField
            label={t('e-card.to')}
            required
            value={values.to}
            onChange={set('to')}
            maxChars={ECARD_NAME_MAX_LENGTH}
            error={errorOf('to')}
          />
          <InputField
            label={t('e-card.toEmail')}
            required
            type="email"
            value={values.toEmail}
            onChange={set('toEmail')}
            maxChars={254}
            error={errorOf('toEmail')}
          />
          <TextAreaField
            label={t('e-card.message')}
            required
            rows={5}
            value={values.message}
            onChange={set('message')}
            maxChars={ECARD_MESSAGE_MAX_LENGTH}
            hint={t('e-card.messageHint', { count: values.message.length, max: ECARD_MESSAGE_MAX_LENGTH })}
            error={errorOf('message')}
          />
          <RadioGroup
            className="e-card-timing"
            legend={t('e-card.timing')}
            name="timing"
            options={[
              { value: 'now', label: t('e-card.now') },
              // account-flows.md §9: a time at least one day ahead, where the tenant allows it.
              ...(tenant.eCard.allowScheduledSend
                ? [{ value: 'timed' as const, label: t('e-card.timed') }]
                : []),
            ]}
            value={values.timing}
            onChange={(timing) =>
              setValues((v) =>
                timing === 'timed'
                  ? { ...v, timing, sendAt: v.sendAt || localInputValue(earliest) }
                  : { ...v, timing },
              )
            }
          />
          {tenant.eCard.allowScheduledSend && (
            <InputField
              label={t('e-card.sendAt')}
              type="datetime-local"
              value={values.sendAt}
              min={localInputValue(earliest)}
              disabled={values.timing !== 'timed'}
              required={values.timing === 'timed'}
              onChange={set('sendAt')}
              error={errorOf('sendAt')}
            />
          )}
        </div>
        {chosen && (
          <figure className="e-card-preview" aria-labelledby="e-card-preview-title">
            <h2 id="e-card-preview-title">{t('e-card.preview')}</h2>
            <img
              src={eCardImageUrl(chosen.previewImageUrl, apiBase)}
              alt={t('e-card.previewAlt', { category: categoryLabel(chosen.category) })}
              width={600}
              height={400}
            />
            <figcaption>
              <p className="e-card-preview-to">{t('e-card.previewTo', { to: values.to || '…' })}</p>
              <p className="e-card-preview-message">{values.message || t('e-card.previewEmpty')}</p>
              <p className="e-card-preview-from">{values.from || '…'}</p>
            </figcaption>
          </figure>
        )}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {values.timing === 'timed' ? t('e-card.schedule') : t('e-card.send')}
          </button>
          {subscriptionId && (
            <Link className="button button-secondary" to={href(ROUTES.subscription, { id: subscriptionId })}>
              {t('account.flow.back')}
            </Link>
          )}
        </div>
      </form>
      <ScheduledECards cards={scheduled} categoryLabel={categoryLabel} />
      {outcome?.outcome === 'e-card:failed' && <ErrorDialog onClose={() => setOutcome(null)} />}
    </section>
  );
}
