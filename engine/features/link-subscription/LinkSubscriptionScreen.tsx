import { useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import { useTenantSettings } from '../../account/capabilityContext';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { RadioGroup } from '../../ui/fields';
import { LinkDialogs } from './LinkDialogs';
import { LinkFields } from './LinkFields';
import { useLinkSubscription } from './useLinkSubscription';

/** /link-subscription (portal-core.md §2, §4 result statuses, §5 field rules, §8 messages). */
export default function LinkSubscriptionScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useTenantSettings();
  const link = useLinkSubscription();
  const { byBp, setByBp, onSubmit, message, result, tooMany, sending, failed, setFailed } = link;

  return (
    <section className="link-subscription" aria-labelledby="link-title">
      <h1 id="link-title">{t('link-subscription.heading')}</h1>
      <p>{t('link-subscription.intro')}</p>
      {settings.linkSubscription?.allowBpNumber && (
        <RadioGroup
          legend={t('link-subscription.methodLegend')}
          name="method"
          options={[
            { value: 'orderNumber', label: t('link-subscription.byOrderNumber') },
            { value: 'bpNumber', label: t('link-subscription.byBpNumber') },
          ]}
          value={byBp ? 'bpNumber' : 'orderNumber'}
          onChange={(method) => setByBp(method === 'bpNumber')}
        />
      )}
      <form ref={link.formRef} noValidate onSubmit={onSubmit} className="link-form">
        <LinkFields link={link} />
        {message && (
          <Alert variant={result?.status === 'no_email_on_record' ? 'info' : 'error'}>
            <p>{message}</p>
            {(result?.status === 'both_found_bp' || result?.status === 'no_email_on_record') && (
              <button type="button" className="button button-secondary" onClick={() => navigate('/contact')}>
                {t('shell.toContact')}
              </button>
            )}
          </Alert>
        )}
        {tooMany && (
          <Alert variant="error">
            <p>{tooMany}</p>
          </Alert>
        )}
        <div className="form-actions">
          <button type="submit" className="button" disabled={sending}>
            {t('link-subscription.submit')}
          </button>
        </div>
      </form>

      <LinkDialogs link={link} />
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </section>
  );
}
