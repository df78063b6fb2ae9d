import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation } from 'react-router';
import type { OptInWidgetProvider } from '../../../schemas/generated/tenant';
import { useTenantSettings } from '../../account/capabilityContext';
import { ContactPhone } from '../../core/ContactPhone';
import { FallbackContact } from '../../core/FallbackContact';
import { usePortal } from '../../core/PortalContext';
import { ApiError } from '../../domain/apiError';
import { tooManyText } from '../../core/tooManyText';
import {
  OPT_IN_WIDGET_NAME_MAX_LENGTH,
  optInWidgetProblems,
  optInWidgetProvider,
  type OptInWidgetDraft,
  type WidgetProblem,
} from '../../domain/widgets';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { InputField, SelectField } from '../../ui/fields';
import { localized } from '../../ui/localized';
import { optInWidgetApi } from './optInWidgetApi';
import './optInWidget.css';
import { portalLocale } from '../../domain/language';

type Provider = OptInWidgetProvider;

/**
 * /opt-in-widget?provider=… (account-flows.md §2 "Opt-in widget", §5, §8): the provider's title and
 * greeting, salutation, first and last name, e-mail and the consent checkbox with the provider's
 * disclaimer. Signing up mails a confirmation link; that link opens this page with `token`, where one
 * click confirms and shows the provider's success text and the voucher code. Disabled or unknown
 * provider: the disabled message with the fallback contact; codes exhausted: phone support (§8).
 */
export default function OptInWidgetScreen() {
  const { t } = useTranslation();
  const tenant = useTenantSettings();
  const query = new URLSearchParams(useLocation().search);
  const provider = optInWidgetProvider(tenant, query.get('provider'));
  if (!provider) {
    return (
      <section className="widget-page notice-page" aria-labelledby="opt-in-widget-title">
        <h1 id="opt-in-widget-title">{t('opt-in-widget.disabledTitle')}</h1>
        <p>{t('opt-in-widget.disabledText')}</p>
        <FallbackContact />
      </section>
    );
  }
  const token = query.get('token');
  return token ? <Confirmation provider={provider} token={token} /> : <SignUpForm provider={provider} />;
}

/** §8 "Voucher codes exhausted: contact phone support": the tenant's contact phone. */
function Exhausted() {
  const { t } = useTranslation();
  return (
    <Alert variant="warning">
      <p>{t('opt-in-widget.exhausted')}</p>
      <ContactPhone />
    </Alert>
  );
}

function SignUpForm({ provider }: { provider: Provider }) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const salutations = tenant.salutations.options.filter((s) => s.isUserSelectable !== false);
  const [values, setValues] = useState<OptInWidgetDraft>({
    salutationCode: '',
    firstName: '',
    lastName1: '',
    email: '',
    optIn: false,
  });
  const [problems, setProblems] = useState<Partial<Record<keyof OptInWidgetDraft, WidgetProblem>>>({});
  const [state, setState] = useState<'form' | 'busy' | 'sent' | 'exhausted' | 'limited' | 'failed'>('form');
  const [limitedBy, setLimitedBy] = useState<unknown>();
  // Editing a field clears its message; the rest stay until the next try.
  const clear = (field: keyof OptInWidgetDraft) => setProblems(({ [field]: _gone, ...rest }) => rest);
  const set =
    (field: 'salutationCode' | 'firstName' | 'lastName1' | 'email') =>
    (event: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [field]: event.target.value }));
      clear(field);
    };
  const message = (field: keyof OptInWidgetDraft) => {
    const problem = problems[field];
    if (!problem) return undefined;
    if (field === 'optIn') return t('opt-in-widget.consentRequired');
    if (problem === 'required') return t('account.entry.required');
    if (problem === 'too_long') return t('account.entry.tooLong', { max: OPT_IN_WIDGET_NAME_MAX_LENGTH });
    return t('account.entry.invalidEmail');
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = optInWidgetProblems(values);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setState('busy');
    try {
      const locale = portalLocale(i18n.language);
      await optInWidgetApi(api).signUp({
        salutationCode: values.salutationCode,
        firstName: values.firstName.trim(),
        lastName1: values.lastName1.trim(),
        email: values.email.trim(),
        optIn: values.optIn,
        provider: provider.code,
        ...(provider.voucherCodeKey ? { voucherCodeKey: provider.voucherCodeKey } : {}),
        locale,
      });
      setState('sent');
    } catch (error) {
      const code = error instanceof ApiError ? error.code : '';
      setLimitedBy(error);
      setState(
        code === 'voucher_codes_exhausted' ? 'exhausted' : code === 'rate_limited' ? 'limited' : 'failed',
      );
    }
  }

  const greeting = localized(provider.greeting, i18n.language);
  if (state === 'sent') {
    return (
      <section className="widget-page opt-in-widget" aria-labelledby="opt-in-widget-title">
        <h1 id="opt-in-widget-title">{localized(provider.title, i18n.language)}</h1>
        <Alert variant="success">
          <p>{t('opt-in-widget.checkInbox', { email: values.email.trim() })}</p>
        </Alert>
      </section>
    );
  }
  return (
    <section className="widget-page opt-in-widget" aria-labelledby="opt-in-widget-title">
      <h1 id="opt-in-widget-title">{localized(provider.title, i18n.language)}</h1>
      {greeting && <div className="tenant-html" dangerouslySetInnerHTML={{ __html: greeting }} />}
      {state === 'exhausted' && <Exhausted />}
      {state === 'limited' && (
        <Alert variant="warning">
          <p>{tooManyText(t, limitedBy)}</p>
        </Alert>
      )}
      <form className="widget-form" onSubmit={submit} noValidate>
        <SelectField
          label={t('opt-in-widget.salutation')}
          required
          value={values.salutationCode}
          onChange={set('salutationCode')}
          error={message('salutationCode')}
        >
          <option value="">{t('opt-in-widget.salutationPlaceholder')}</option>
          {salutations.map((s) => (
            <option key={s.code} value={s.code}>
              {localized(s.title, i18n.language) || s.code}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('opt-in-widget.firstName')}
          required
          autoComplete="given-name"
          maxChars={OPT_IN_WIDGET_NAME_MAX_LENGTH}
          value={values.firstName}
          onChange={set('firstName')}
          error={message('firstName')}
        />
        <InputField
          label={t('opt-in-widget.lastName')}
          required
          autoComplete="family-name"
          maxChars={OPT_IN_WIDGET_NAME_MAX_LENGTH}
          value={values.lastName1}
          onChange={set('lastName1')}
          error={message('lastName1')}
        />
        <InputField
          label={t('account.entry.email')}
          type="email"
          required
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={message('email')}
        />
        <div className="form-field form-check opt-in-widget-consent">
          <input
            id="opt-in-widget-consent"
            type="checkbox"
            checked={values.optIn}
            aria-invalid={problems.optIn ? true : undefined}
            aria-describedby={problems.optIn ? 'opt-in-widget-consent-error' : undefined}
            onChange={(event) => {
              setValues((v) => ({ ...v, optIn: event.target.checked }));
              clear('optIn');
            }}
          />
          {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- its text is the tenant's sanitized disclaimer HTML, which the rule cannot see; axe checks the rendered label */}
          <label
            htmlFor="opt-in-widget-consent"
            className="tenant-html"
            dangerouslySetInnerHTML={{ __html: localized(provider.disclaimer, i18n.language) }}
          />
          {problems.optIn && (
            <p id="opt-in-widget-consent-error" className="form-error">
              {message('optIn')}
            </p>
          )}
        </div>
        <div className="form-actions">
          <button type="submit" className="button" disabled={state === 'busy'}>
            {t('opt-in-widget.submit')}
          </button>
        </div>
      </form>
      {state === 'failed' && <ErrorDialog onClose={() => setState('form')} />}
    </section>
  );
}

function Confirmation({ provider, token }: { provider: Provider; token: string }) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const [state, setState] = useState<'ready' | 'busy' | 'done' | 'invalid' | 'exhausted' | 'failed'>('ready');
  const [code, setCode] = useState<string | null>(null);

  async function confirm() {
    setState('busy');
    try {
      const answer = await optInWidgetApi(api).confirm(token);
      setCode(answer.voucherCode);
      setState('done');
    } catch (error) {
      const errorCode = error instanceof ApiError ? error.code : '';
      setState(
        errorCode === 'voucher_codes_exhausted'
          ? 'exhausted'
          : error instanceof ApiError && error.status === 404
            ? 'invalid'
            : 'failed',
      );
    }
  }

  const success = localized(provider.success, i18n.language);
  return (
    <section className="widget-page opt-in-widget" aria-labelledby="opt-in-widget-title">
      <h1 id="opt-in-widget-title">{localized(provider.title, i18n.language)}</h1>
      {state === 'done' ? (
        <>
          {success ? (
            <div className="tenant-html" dangerouslySetInnerHTML={{ __html: success }} />
          ) : (
            <p>{t('opt-in-widget.confirmed')}</p>
          )}
          {code && (
            <div className="voucher" role="status">
              <p>{t('opt-in-widget.voucherLabel')}</p>
              <p className="voucher-code" data-testid="voucher-code">
                {code}
              </p>
            </div>
          )}
        </>
      ) : state === 'invalid' ? (
        <Alert variant="warning">
          <p>{t('opt-in-widget.linkInvalid')}</p>
        </Alert>
      ) : state === 'exhausted' ? (
        <Exhausted />
      ) : (
        <>
          <p>{t('opt-in-widget.confirmIntro')}</p>
          <div className="form-actions">
            <button type="button" className="button" onClick={confirm} disabled={state === 'busy'}>
              {t('opt-in-widget.confirm')}
            </button>
          </div>
        </>
      )}
      {state === 'failed' && <ErrorDialog onClose={() => setState('ready')} />}
    </section>
  );
}
