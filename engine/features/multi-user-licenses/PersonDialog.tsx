import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../core/translation';
import type { LicensePersonRequest } from '../../../schemas/generated/license-person-request';
import { useSalutationOptions } from '../../account/changes/addressContext';
import { useFocusFirstError } from '../../ui/focusFirstError';
import { licensePersonErrors, LICENSE_EMAIL_MAX, LICENSE_NAME_MAX } from '../../domain/licenses';
import { Dialog } from '../../ui/Dialog';
import { InputField, SelectField } from '../../ui/fields';
import { actionErrorText, fieldErrorsOf } from './licenseErrors';
import { fieldErrorText } from './fieldErrorText';

/**
 * The person form of the add-licence and replace-manager dialogs (account-flows.md §5 "Licences:
 * add needs email, first name (max 30), last name (max 30), salutation if required by config.
 * Manager dialog: salutation, email, first name, last name (max 30)"). Checked here by the same
 * rule the server answers by (engine/domain/licenses.ts); the server's field errors show the same way.
 */
export function PersonDialog({
  title,
  submitLabel,
  intro,
  salutationRequired,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  intro?: string;
  salutationRequired: boolean;
  onSubmit: (person: LicensePersonRequest) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const salutations = useSalutationOptions(true);
  const [person, setPerson] = useState<LicensePersonRequest>({
    salutationCode: '',
    emailAddress: '',
    firstName: '',
    lastName1: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const { ref: formRef, refused } = useFocusFirstError();
  const set = (field: keyof LicensePersonRequest) => (value: string) =>
    setPerson((p) => ({ ...p, [field]: value }));
  const error = (field: string, max?: number) =>
    errors[field] ? fieldErrorText(t, errors[field], max, field) : undefined;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = licensePersonErrors(person, {
      salutationRequired,
      salutationCodes: salutations.map((s) => s.code),
    });
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    setSending(true);
    try {
      await onSubmit({ ...person, salutationCode: person.salutationCode || null });
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields) {
        setErrors(fields);
        refused();
      } else setFailure(actionErrorText(caught, t) ?? t('shell.genericError'));
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog
      title={title}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('multi-user-licenses.cancel')}
          </button>
          <button type="submit" form="license-person-form" className="button" disabled={sending}>
            {submitLabel}
          </button>
        </>
      }
    >
      {intro && <p>{intro}</p>}
      <form
        ref={formRef}
        id="license-person-form"
        className="license-person-form"
        onSubmit={submit}
        noValidate
      >
        <SelectField
          label={t('multi-user-licenses.field.salutation')}
          required={salutationRequired}
          value={person.salutationCode ?? ''}
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
        <InputField
          label={t('multi-user-licenses.field.email')}
          type="email"
          autoComplete="off"
          required
          maxChars={LICENSE_EMAIL_MAX}
          value={person.emailAddress ?? ''}
          onChange={(e) => set('emailAddress')(e.target.value)}
          error={error('emailAddress')}
        />
        <InputField
          label={t('multi-user-licenses.field.firstName')}
          required
          maxChars={LICENSE_NAME_MAX}
          value={person.firstName ?? ''}
          onChange={(e) => set('firstName')(e.target.value)}
          error={error('firstName', LICENSE_NAME_MAX)}
        />
        <InputField
          label={t('multi-user-licenses.field.lastName')}
          required
          maxChars={LICENSE_NAME_MAX}
          value={person.lastName1 ?? ''}
          onChange={(e) => set('lastName1')(e.target.value)}
          error={error('lastName1', LICENSE_NAME_MAX)}
        />
      </form>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
    </Dialog>
  );
}
