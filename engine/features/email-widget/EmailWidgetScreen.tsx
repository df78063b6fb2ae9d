import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation } from 'react-router';
import type { EmailWidgetResult } from '../../../schemas/generated/email-widget-result';
import { useTenantSettings } from '../../account/capabilityContext';
import { useSaveFile } from '../../account/useSaveFile';
import { usePortal } from '../../core/PortalContext';
import { Link } from '../../core/links';
import { ApiError } from '../../domain/apiError';
import { isDeadLinkAnswer } from '../../domain/deadLink';
import { tooManyText } from '../../core/tooManyText';
import { ORDER_NUMBER_MAX_LENGTH, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import {
  emailWidgetProblems,
  emailWidgetShowsOptIn,
  type EmailWidgetDraft,
  type WidgetProblem,
} from '../../domain/widgets';
import { Alert } from '../../ui/Alert';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { InputField, CheckboxField } from '../../ui/fields';
import { localized } from '../../ui/localized';
import { emailWidgetApi } from './emailWidgetApi';
import './emailWidget.css';
import { portalLocale } from '../../domain/language';

/**
 * /email-widget (account-flows.md §2 "Email widget", §5): the form (e-mail, order number, zip code,
 * the opt-in checkbox when the tenant supports opt-ins). Its answer is always "check your inbox";
 * opened from the mailed link (`?token=`), the page shows the result after one click (a mail
 * scanner opening the link records nothing): success title, the tenant's message or the default,
 * the subscription and the reward cards with downloads.
 */
export default function EmailWidgetScreen() {
  const token = new URLSearchParams(useLocation().search).get('token');
  return token ? <EmailWidgetResultView token={token} /> : <EmailWidgetForm />;
}

function problemText(
  t: (key: string, values?: Record<string, unknown>) => string,
  problem: WidgetProblem | undefined,
  field: keyof EmailWidgetDraft,
) {
  if (!problem) return undefined;
  if (problem === 'required') return t('account.entry.required');
  if (problem === 'too_long') return t('account.entry.tooLong', { max: ZIP_CODE_MAX_LENGTH });
  return field === 'email' ? t('account.entry.invalidEmail') : t('account.entry.invalidOrderNumber');
}

function EmailWidgetForm() {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const [values, setValues] = useState<EmailWidgetDraft>({ email: '', orderNumber: '', zipcode: '' });
  const [optIn, setOptIn] = useState(false);
  const [problems, setProblems] = useState<Partial<Record<keyof EmailWidgetDraft, WidgetProblem>>>({});
  const [state, setState] = useState<'form' | 'busy' | 'sent' | 'limited' | 'failed'>('form');
  const [limitedBy, setLimitedBy] = useState<unknown>();
  const { ref: formRef, refused } = useFocusFirstError();
  const set = (field: keyof EmailWidgetDraft) => (event: { target: { value: string } }) => {
    setValues((v) => ({
      ...v,
      [field]: field === 'orderNumber' ? event.target.value.replace(/\D/g, '') : event.target.value,
    }));
    // Editing a field clears its message; the rest stay until the next try.
    setProblems(({ [field]: _gone, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = emailWidgetProblems(values);
    setProblems(found);
    // The focus goes to the first field the form refused, where its message is said.
    if (Object.keys(found).length > 0) return refused();
    setState('busy');
    try {
      const locale = portalLocale(i18n.language);
      await emailWidgetApi(api).request({
        email: values.email.trim(),
        orderNumber: values.orderNumber.trim(),
        zipcode: values.zipcode.trim(),
        optIn: emailWidgetShowsOptIn(tenant) && optIn,
        locale,
      });
      setState('sent');
    } catch (error) {
      setLimitedBy(error);
      setState(error instanceof ApiError && error.status === 429 ? 'limited' : 'failed');
    }
  }

  const locked = state === 'sent';
  return (
    <section className="widget-page email-widget" aria-labelledby="email-widget-title">
      <h1 id="email-widget-title">{t('email-widget.heading')}</h1>
      <p>{t('email-widget.intro')}</p>
      {state === 'sent' && (
        <Alert variant="success">
          <p>{t('email-widget.checkInbox')}</p>
        </Alert>
      )}
      {state === 'limited' && (
        <Alert variant="warning">
          <p>{tooManyText(t, limitedBy)}</p>
        </Alert>
      )}
      <form ref={formRef} className="widget-form" onSubmit={submit} noValidate>
        <InputField
          label={t('account.entry.email')}
          type="email"
          required
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          disabled={locked}
          error={problemText(t, problems.email, 'email')}
        />
        <InputField
          label={t('account.entry.orderNumber')}
          required
          inputMode="numeric"
          value={values.orderNumber}
          onChange={set('orderNumber')}
          maxChars={ORDER_NUMBER_MAX_LENGTH}
          tooLongKey="shell.orderNumberTooLong"
          disabled={locked}
          error={problemText(t, problems.orderNumber, 'orderNumber')}
        />
        <InputField
          label={t('account.entry.zipcode')}
          required
          autoComplete="postal-code"
          value={values.zipcode}
          onChange={set('zipcode')}
          maxChars={ZIP_CODE_MAX_LENGTH}
          disabled={locked}
          error={problemText(t, problems.zipcode, 'zipcode')}
        />
        {emailWidgetShowsOptIn(tenant) && !locked && (
          <CheckboxField label={t('email-widget.optIn')} checked={optIn} onChange={setOptIn} />
        )}
        <div className="form-actions">
          {/* Keys: two different buttons, so React never turns the clicked "change" button into the submit button mid-click. */}
          {locked ? (
            <button
              key="change"
              type="button"
              className="button button-secondary"
              onClick={() => setState('form')}
            >
              {t('account.entry.changeDetails')}
            </button>
          ) : (
            <button key="submit" type="submit" className="button" disabled={state === 'busy'}>
              {t('email-widget.submit')}
            </button>
          )}
        </div>
      </form>
      {state === 'failed' && <ErrorDialog onClose={() => setState('form')} />}
    </section>
  );
}

function EmailWidgetResultView({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const saveFile = useSaveFile();
  const [result, setResult] = useState<EmailWidgetResult | null>(null);
  const [state, setState] = useState<'ready' | 'busy' | 'expired' | 'failed' | 'downloadFailed'>('ready');

  async function open() {
    setState('busy');
    try {
      setResult(await emailWidgetApi(api).confirm(token));
      setState('ready');
    } catch (error) {
      setState(isDeadLinkAnswer(error) ? 'expired' : 'failed');
    }
  }

  async function download(path: string, key: string) {
    try {
      await saveFile(path, `${key}.svg`);
    } catch {
      setState('downloadFailed');
    }
  }

  if (!result) {
    return (
      <section className="widget-page email-widget" aria-labelledby="email-widget-title">
        <h1 id="email-widget-title">{t('email-widget.heading')}</h1>
        {state === 'expired' ? (
          <Alert variant="warning">
            <p>{t('email-widget.expired')}</p>
            {/* The form is this page without the link's token. */}
            <p>
              <Link to={{ pathname: location.pathname }}>{t('email-widget.toForm')}</Link>
            </p>
          </Alert>
        ) : (
          <>
            <p>{t('email-widget.openIntro')}</p>
            <div className="form-actions">
              <button type="button" className="button" onClick={open} disabled={state === 'busy'}>
                {t('email-widget.open')}
              </button>
            </div>
          </>
        )}
        {state === 'failed' && <ErrorDialog onClose={() => setState('ready')} />}
      </section>
    );
  }
  const message = localized(tenant.emailWidget.successHtml, i18n.language);
  return (
    <section className="widget-page email-widget" aria-labelledby="email-widget-title">
      <h1 id="email-widget-title">{t('email-widget.successTitle')}</h1>
      {message ? (
        <div className="tenant-html" dangerouslySetInnerHTML={{ __html: message }} />
      ) : (
        <p>{t('email-widget.successText')}</p>
      )}
      <div className="widget-subscription">
        {result.subscription.coverImageUrl && (
          <img src={result.subscription.coverImageUrl} alt="" width={60} height={80} />
        )}
        <p>
          <strong>{result.subscription.displayName}</strong>
          <span className="muted">
            {t('account.flow.orderNumber', { orderNumber: result.subscription.orderNumber })}
          </span>
        </p>
      </div>
      {result.rewards.length > 0 && (
        <>
          <h2>{t('email-widget.rewards')}</h2>
          <ul className="reward-grid">
            {result.rewards.map((reward) => (
              <li key={reward.key} className="card reward-card">
                <img src={reward.coverImageUrl} alt="" width={300} height={160} />
                <h3>{reward.description}</h3>
                <button
                  type="button"
                  className="button"
                  onClick={() => download(reward.download, reward.key)}
                  aria-label={t('email-widget.downloadNamed', { reward: reward.description })}
                >
                  {t('email-widget.download')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {state === 'downloadFailed' && <ErrorDialog onClose={() => setState('ready')} />}
    </section>
  );
}
