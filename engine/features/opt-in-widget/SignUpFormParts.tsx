/**
 * The opt-in widget's sign-up form in parts (account-flows.md §2 "Opt-in widget", §5): the person's
 * fields (salutation, first and last name, e-mail) and the consent checkbox with the provider's
 * disclaimer.
 */
import { useTranslation } from '../../core/translation';
import type { OptInWidgetProvider } from '../../../schemas/generated/tenant';
import { useTenantSettings } from '../../account/capabilityContext';
import { OPT_IN_WIDGET_NAME_MAX_LENGTH } from '../../domain/widgets';
import { InputField, SelectField } from '../../ui/fields';
import { localized } from '../../ui/localized';
import type { OptInSignUpModel } from './useOptInSignUp';

type Model = { form: OptInSignUpModel };

/** Salutation (the user-selectable ones), first and last name, e-mail. */
export function SignUpFields({ form }: Model) {
  const { t, i18n } = useTranslation();
  const tenant = useTenantSettings();
  const salutations = tenant.salutations.options.filter((s) => s.isUserSelectable !== false);
  const { values, set, message } = form;
  return (
    <>
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
    </>
  );
}

/** The consent: the checkbox labelled by the provider's disclaimer, and its message when missing. */
export function ConsentCheckbox({ form, provider }: Model & { provider: OptInWidgetProvider }) {
  const { i18n } = useTranslation();
  const { values, problems, setOptIn, message } = form;
  return (
    <div className="form-field form-check opt-in-widget-consent">
      <input
        id="opt-in-widget-consent"
        type="checkbox"
        checked={values.optIn}
        aria-invalid={problems.optIn ? true : undefined}
        aria-describedby={problems.optIn ? 'opt-in-widget-consent-error' : undefined}
        onChange={(event) => setOptIn(event.target.checked)}
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
  );
}
