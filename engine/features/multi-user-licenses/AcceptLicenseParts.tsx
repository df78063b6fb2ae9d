/**
 * The accept page's form in parts (account-flows.md §5 "Accept licence"): the invited person's
 * fields (salutation, academic title, names, company), the role with its academic year, and the
 * form around them with the disabled e-mail.
 */
import { useTranslation } from '../../core/translation';
import { ACCEPT_NAME_MAX } from '../../domain/licenses';
import { InputField, SelectField } from '../../ui/fields';
import { localized } from '../../ui/localized';
import { fieldErrorText } from './fieldErrorText';
import type { AcceptLicenseModel } from './useAcceptLicense';

type Model = { model: AcceptLicenseModel };

function useErrorText({ errors }: AcceptLicenseModel) {
  const { t } = useTranslation();
  return (field: string, max?: number) => (errors[field] ? fieldErrorText(t, errors[field], max) : undefined);
}

/** Salutation, the academic title when the tenant requires it, names and company (max 35). */
function AcceptPersonFields({ model }: Model) {
  const { t } = useTranslation();
  const { bp, set, settings, salutations, titles } = model;
  const error = useErrorText(model);
  return (
    <>
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
    </>
  );
}

/** The role when the tenant has roles, and the academic year (2 digits) when the chosen role asks for it. */
function AcceptRoleFields({ model }: Model) {
  const { t, i18n } = useTranslation();
  const { settings, role, setRole, needsYear, academicYear, setAcademicYear, errors } = model;
  const error = useErrorText(model);
  return (
    <>
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
    </>
  );
}

/** The form once the link's info is there: the intro, the invited e-mail (disabled), the fields. */
export function AcceptLicenseForm({ model }: Model) {
  const { t } = useTranslation();
  const { info, formRef, submit, sending } = model;
  if (!info) return null;
  return (
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
      <AcceptPersonFields model={model} />
      <AcceptRoleFields model={model} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={sending}>
          {t('multi-user-licenses.accept.submit')}
        </button>
      </div>
    </form>
  );
}
