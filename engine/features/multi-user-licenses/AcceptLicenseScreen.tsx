import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import { useLocation, useParams } from 'react-router';
import type { AcceptLicenseInfo } from '../../../schemas/generated/licenses';
import type { LicenseAcceptRequest } from '../../../schemas/generated/license-accept-request';
import { useTenantSettings } from '../../account/capabilityContext';
import { useSalutationOptions } from '../../account/changes/addressContext';
import { useFocusFirstError } from '../../account/changes/focusFirstError';
import { usePortal } from '../../core/PortalContext';
import { ACCEPT_NAME_MAX, acceptLicenseErrors, roleNeedsAcademicYear } from '../../domain/licenses';
import { InputField, SelectField } from '../../ui/fields';
import { Loading } from '../../ui/Loading';
import { localized } from '../../ui/localized';
import { fieldErrorText } from './fieldErrorText';
import { acceptOutcome, fieldErrorsOf, type AcceptOutcome } from './licenseErrors';
import { licensesApi } from './licensesApi';
import { LinkOutcomeNotice } from './LinkOutcomeNotice';

type Bp = LicenseAcceptRequest['businessPartner'];

/**
 * /subscriptions/{id}/licenses/{licenseId}/accept?token=… (account-flows.md §2 "Licences", §5
 * "Accept licence", §8), anonymous: the invitation e-mail's link. The e-mail shows disabled; the
 * form asks salutation, names and company (max 35), the academic title when the tenant requires
 * it, the role when it has roles, and the academic year (2 digits) when the chosen role asks for
 * it. A 404 is the 'not found' info; a replaced or used link its own message; anything else an
 * error with try again. After accepting, the person signs in with the invited address.
 */
export default function AcceptLicenseScreen() {
  const { t, i18n } = useTranslation();
  const { id = '', licenseId = '' } = useParams();
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const { api } = usePortal();
  const tenant = useTenantSettings();
  const settings = tenant.multiUserLicenses;
  const salutations = useSalutationOptions(true);
  const titles = tenant.academicTitles.options;
  const [info, setInfo] = useState<AcceptLicenseInfo | null>(null);
  const [outcome, setOutcome] = useState<AcceptOutcome | 'loading' | 'accepted' | null>('loading');
  const [round, setRound] = useState(0);
  const [refusal, setRefusal] = useState<unknown>();
  const [bp, setBp] = useState<Bp>({
    salutationCode: '',
    titleAcademic: '',
    firstName: '',
    lastName1: '',
    company1: '',
  });
  const [role, setRole] = useState('');
  const [academicYear, setAcademicYear] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();

  useEffect(() => {
    let live = true;
    if (!token) {
      // Without the link's token there is nothing to accept (the link is the proof).
      setOutcome('invalidLink');
      return undefined;
    }
    setOutcome('loading');
    licensesApi(api)
      .acceptInfo(id, licenseId, token)
      .then(
        (answer) => {
          if (!live) return;
          setInfo(answer);
          setBp((current) => ({
            ...current,
            salutationCode: answer.businessPartner.salutationCode ?? '',
            firstName: answer.businessPartner.firstName ?? '',
            lastName1: answer.businessPartner.lastName1 ?? '',
          }));
          setOutcome(null);
        },
        (error) => {
          if (!live) return;
          setRefusal(error);
          setOutcome(acceptOutcome(error));
        },
      );
    return () => {
      live = false;
    };
  }, [api, id, licenseId, token, round]);

  const needsYear = roleNeedsAcademicYear(settings, role);
  const error = (field: string, max?: number) =>
    errors[field] ? fieldErrorText(t, errors[field], max) : undefined;
  const set = (field: keyof Bp) => (value: string) => setBp((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const form = { businessPartner: bp, role: role || null, academicYear: needsYear ? academicYear : null };
    const found = acceptLicenseErrors(form, settings, {
      salutationCodes: salutations.map((s) => s.code),
      academicTitleCodes: titles.map((a) => a.code),
    });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    setSending(true);
    try {
      await licensesApi(api).accept(id, licenseId, {
        token,
        ...form,
        businessPartner: { ...bp, titleAcademic: bp.titleAcademic || null },
      });
      setOutcome('accepted');
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields) {
        setErrors(fields);
        refused();
      } else {
        setRefusal(caught);
        setOutcome(acceptOutcome(caught));
      }
    } finally {
      setSending(false);
    }
  }

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
          onTryAgain={() => setRound((n) => n + 1)}
          refusal={refusal}
        />
      )}
      {outcome === null && info && (
        <form ref={formRef} className="accept-license-form" onSubmit={submit} noValidate>
          <p>
            {t('multi-user-licenses.accept.intro', {
              publication: info.publicationName,
              orderNumber: info.orderNumber,
            })}
          </p>
          <InputField
            label={t('multi-user-licenses.field.email')}
            type="email"
            value={info.email}
            disabled
            readOnly
          />
          <SelectField
            label={t('multi-user-licenses.field.salutation')}
            required
            value={bp.salutationCode ?? ''}
            onChange={(e) => set('salutationCode')(e.target.value)}
            error={error('salutationCode')}
          >
            <option value="">{t('multi-user-licenses.field.choose')}</option>
            {salutations.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </SelectField>
          {settings.requireAcademicTitle && (
            <SelectField
              label={t('multi-user-licenses.field.titleAcademic')}
              required
              value={bp.titleAcademic ?? ''}
              onChange={(e) => set('titleAcademic')(e.target.value)}
              error={error('titleAcademic')}
            >
              <option value="">{t('multi-user-licenses.field.choose')}</option>
              {titles.map((a) => (
                <option key={a.code} value={a.code}>
                  {a.title}
                </option>
              ))}
            </SelectField>
          )}
          <InputField
            label={t('multi-user-licenses.field.firstName')}
            required
            maxChars={ACCEPT_NAME_MAX}
            value={bp.firstName ?? ''}
            onChange={(e) => set('firstName')(e.target.value)}
            error={error('firstName', ACCEPT_NAME_MAX)}
          />
          <InputField
            label={t('multi-user-licenses.field.lastName')}
            required
            maxChars={ACCEPT_NAME_MAX}
            value={bp.lastName1 ?? ''}
            onChange={(e) => set('lastName1')(e.target.value)}
            error={error('lastName1', ACCEPT_NAME_MAX)}
          />
          <InputField
            label={t('multi-user-licenses.field.company')}
            required
            maxChars={ACCEPT_NAME_MAX}
            value={bp.company1 ?? ''}
            onChange={(e) => set('company1')(e.target.value)}
            error={error('company1', ACCEPT_NAME_MAX)}
          />
          {settings.roles.length > 0 && (
            <SelectField
              label={t('multi-user-licenses.field.role')}
              required={settings.requireRole}
              value={role}
              onChange={(e) => setRole(e.target.value)}
              error={error('role')}
            >
              <option value="">{t('multi-user-licenses.field.choose')}</option>
              {settings.roles.map((r) => (
                <option key={r.code} value={r.code}>
                  {localized(r.title, i18n.language)}
                </option>
              ))}
            </SelectField>
          )}
          {needsYear && (
            <InputField
              label={t('multi-user-licenses.field.academicYear')}
              required
              inputMode="numeric"
              pattern="[0-9]{2}"
              maxChars={2}
              value={academicYear}
              // §5's 2-digit mask: digits only; a third digit stays and the field says so.
              onChange={(e) => setAcademicYear(e.target.value.replace(/\D/g, ''))}
              error={
                errors.academicYear
                  ? errors.academicYear === 'required'
                    ? t('multi-user-licenses.field.required')
                    : t('multi-user-licenses.field.academicYearInvalid')
                  : undefined
              }
            />
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={sending}>
              {t('multi-user-licenses.accept.submit')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
