import { useTranslation } from '../../core/translation';
import { Loading } from '../../ui/Loading';
import { AcceptLicenseForm } from './AcceptLicenseParts';
import { LinkOutcomeNotice } from './LinkOutcomeNotice';
import { useAcceptLicense } from './useAcceptLicense';

/**
 * /subscriptions/{id}/licenses/{licenseId}/accept?token=… (account-flows.md §2 "Licences", §5
 * "Accept licence", §8), anonymous: the invitation e-mail's link. The e-mail shows disabled; the
 * form asks salutation, names and company (max 35), the academic title when the tenant requires
 * it, the role when it has roles, and the academic year (2 digits) when the chosen role asks for
 * it. A 404 is the 'not found' info; a replaced or used link its own message; anything else an
 * error with try again. After accepting, the person signs in with the invited address. Its state
 * and calls are useAcceptLicense's, its form AcceptLicenseParts'.
 */
export default function AcceptLicenseScreen() {
  const { t } = useTranslation();
  const model = useAcceptLicense();
  const { outcome, info, refusal, tryAgain } = model;
  return (
    <section className="account-change accept-license" aria-labelledby="accept-license-title">
      <h1 id="accept-license-title">{t('multi-user-licenses.accept.heading')}</h1>
      {outcome === 'loading' && <Loading />}
      {outcome !== null && outcome !== 'loading' && (
        <LinkOutcomeNotice
          outcome={outcome === 'accepted' ? 'done' : outcome}
          email={info?.email ?? ''}
          texts={{
            done: 'multi-user-licenses.accept.done',
            notFound: 'multi-user-licenses.accept.notFound',
            invalidLink: 'multi-user-licenses.accept.invalidLink',
            alreadyUsed: 'multi-user-licenses.accept.alreadyAccepted',
          }}
          onTryAgain={tryAgain}
          refusal={refusal}
        />
      )}
      {outcome === null && info && <AcceptLicenseForm model={model} />}
    </section>
  );
}
