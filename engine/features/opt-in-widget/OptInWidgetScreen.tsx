import { useEffect, useState } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation } from 'react-router';
import type { OptInWidgetProvider } from '../../../schemas/generated/tenant';
import { useTenantSettings } from '../../account/capabilityContext';
import { ContactPhone } from '../../core/ContactPhone';
import { FallbackContact } from '../../core/FallbackContact';
import { usePortal } from '../../core/PortalContext';
import { Link } from '../../core/links';
import { ApiError } from '../../domain/apiError';
import { isDeadLinkAnswer } from '../../domain/deadLink';
import { tooManyText } from '../../core/tooManyText';
import { optInWidgetProvider } from '../../domain/widgets';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { localized } from '../../ui/localized';
import { optInWidgetApi } from './optInWidgetApi';
import './optInWidget.css';
import { ConsentCheckbox, SignUpFields } from './SignUpFormParts';
import { useOptInSignUp } from './useOptInSignUp';

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

/**
 * The sign-up (§2 "Opt-in widget", §5): the provider's greeting, the fields and the consent; once
 * sent, the check-your-inbox notice. Its state and sending are useOptInSignUp's, its fields
 * SignUpFormParts'.
 */
function SignUpForm({ provider }: { provider: Provider }) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const form = useOptInSignUp(provider);
  const { values, state, setState, limitedBy } = form;
  const greeting = localized(provider.greeting, i18n.language);
  // An empty pool is said before anyone types; if the answer does not come, the form stays and its
  // submit says it (the server checks the pool there too).
  const [noCodesLeft, setNoCodesLeft] = useState(false);
  useEffect(() => {
    let current = true;
    optInWidgetApi(api)
      .provider(provider.code)
      .then(
        (answer) => current && setNoCodesLeft(answer?.codesLeft === false),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [api, provider.code]);
  // Only a form nobody has typed into gives way to the notice; typed values stay, the notice above.
  const typed = Object.values(values).some((value) => value !== '' && value !== false);
  if (noCodesLeft && state !== 'sent' && !typed) {
    return (
      <section className="widget-page opt-in-widget" aria-labelledby="opt-in-widget-title">
        <h1 id="opt-in-widget-title">{localized(provider.title, i18n.language)}</h1>
        <Exhausted />
      </section>
    );
  }
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
      {(state === 'exhausted' || noCodesLeft) && <Exhausted />}
      {state === 'limited' && (
        <Alert variant="warning">
          <p>{tooManyText(t, limitedBy)}</p>
        </Alert>
      )}
      <form ref={form.formRef} className="widget-form" onSubmit={form.submit} noValidate>
        <SignUpFields form={form} />
        <ConsentCheckbox form={form} provider={provider} />
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

/**
 * The token this tab confirmed last (session storage): a reload of the confirmation page shows the
 * code again instead of asking for the click once more. The click stays the first time, so a mail
 * scanner opening the link confirms nothing; the server answers a confirmed token with its code.
 */
const CONFIRMED_TOKEN_KEY = 'portal.optInWidget.confirmedToken';

function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

function confirmedInThisTab(token: string): boolean {
  try {
    return tabStorage()?.getItem(CONFIRMED_TOKEN_KEY) === token;
  } catch {
    return false;
  }
}

function Confirmation({ provider, token }: { provider: Provider; token: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const { api } = usePortal();
  const [state, setState] = useState<'ready' | 'busy' | 'done' | 'invalid' | 'exhausted' | 'failed'>(() =>
    confirmedInThisTab(token) ? 'busy' : 'ready',
  );
  const [code, setCode] = useState<string | null>(null);

  async function confirm() {
    setState('busy');
    try {
      const answer = await optInWidgetApi(api).confirm(token);
      setCode(answer.voucherCode);
      setState('done');
      try {
        tabStorage()?.setItem(CONFIRMED_TOKEN_KEY, token);
      } catch {
        // Storage full or refused: a reload asks for the click again, as before.
      }
    } catch (error) {
      const errorCode = error instanceof ApiError ? error.code : '';
      setState(
        errorCode === 'voucher_codes_exhausted'
          ? 'exhausted'
          : isDeadLinkAnswer(error)
            ? 'invalid'
            : 'failed',
      );
    }
  }

  // Once per token: a reload of a page this tab confirmed shows the code at once.
  useEffect(() => {
    if (confirmedInThisTab(token)) void confirm();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- confirm is this render's; the token decides
  }, [token]);

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
          {/* The sign-up is this page with the provider and without the link's token. */}
          <p>
            <Link
              to={{ pathname: location.pathname, search: `?provider=${encodeURIComponent(provider.code)}` }}
            >
              {t('opt-in-widget.toForm')}
            </Link>
          </p>
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
