import { useId } from 'react';
import { useTranslation } from '../../core/translation';
import type { AddressField } from '../../domain/addressRules';
import { InputField, SelectField } from '../../ui/fields';
import { LockedHint, LockedNote } from './LockedHint';
import type { OrganisationField, PostalField, PostalValues } from './postalAddress';

export interface AddressFieldsProps {
  legend: string;
  values: PostalValues & Partial<Record<OrganisationField, string>>;
  onChange: (field: PostalField | OrganisationField, value: string) => void;
  errors: Partial<Record<AddressField, string>>;
  /** The starred fields (engine/domain/addressChange.ts requiredAddressFields). */
  required: ReadonlySet<AddressField>;
  /** The tenant's `address-lines` feature: three lines instead of street and number (§5). */
  addressLines: boolean;
  salutations: ReadonlyArray<{ code: string; label: string }>;
  countries: ReadonlyArray<{ code: string; name: string }>;
  /** Names and salutation, and the country, shown but not editable (tenant addressChange, §5). */
  namesLocked?: boolean;
  countryLocked?: boolean;
  disabled?: boolean;
  /** A partner's form: the company's second line, job title and department too (§5). */
  organisation?: boolean;
}

/**
 * The postal address part of the address forms (account-flows.md §5 "Address form"), used by the
 * address change and by the holiday redirect's target address: salutation and names, company (for
 * a partner with its second line, job title and department), address lines or street and number,
 * zip code, town and country. Locked groups stay visible,
 * disabled, with the pointer to the contact form.
 */
export function AddressFields({
  legend,
  values,
  onChange,
  errors,
  required,
  addressLines,
  salutations,
  countries,
  namesLocked,
  countryLocked,
  disabled,
  organisation,
}: AddressFieldsProps) {
  const { t } = useTranslation();
  const namesHintId = useId();
  const text = (field: PostalField | OrganisationField) => ({
    label: t(`account.address.${field}`),
    value: values[field] ?? '',
    required: required.has(field),
    error: errors[field],
    disabled,
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
  });
  const names = (field: PostalField | OrganisationField) => ({
    ...text(field),
    disabled: disabled || namesLocked,
    describedById: namesLocked ? namesHintId : undefined,
  });

  return (
    <fieldset className="address-fields">
      <legend>{legend}</legend>
      <div className="field-row">
        <SelectField {...names('salutationCode')} className="field-narrow">
          <option value="">{t('account.address.salutationPlaceholder')}</option>
          {salutations.map((s) => (
            <option key={s.code} value={s.code}>
              {s.label}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="field-row">
        <InputField {...names('firstName')} autoComplete="given-name" />
        <InputField {...names('lastName1')} autoComplete="family-name" />
      </div>
      <InputField {...names('company1')} autoComplete="organization" />
      {organisation && <InputField {...names('company2')} />}
      {/* Under the locked group itself: job title and department, below it, stay editable. */}
      {namesLocked && <LockedHint id={namesHintId} />}
      {organisation && (
        <div className="field-row">
          <InputField {...text('jobTitle')} autoComplete="organization-title" />
          <InputField {...text('department')} />
        </div>
      )}
      {addressLines ? (
        <>
          <InputField {...text('addressLine1')} autoComplete="address-line1" />
          <InputField {...text('addressLine2')} autoComplete="address-line2" />
          <InputField {...text('addressLine3')} autoComplete="address-line3" />
        </>
      ) : (
        <div className="field-row street-row">
          <InputField {...text('street')} autoComplete="address-line1" className="field-wide" />
          <InputField {...text('streetNumber')} className="field-narrow" />
          <InputField {...text('streetNumberSuffix')} className="field-narrow" />
        </div>
      )}
      <div className="field-row zip-row">
        <InputField {...text('zipcode')} autoComplete="postal-code" className="field-narrow" />
        <InputField {...text('city')} autoComplete="address-level2" className="field-wide" />
      </div>
      <SelectField
        {...text('countryCode')}
        disabled={disabled || countryLocked}
        hint={countryLocked ? <LockedNote /> : undefined}
        autoComplete="country"
      >
        <option value="">{t('account.address.countryPlaceholder')}</option>
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </SelectField>
    </fieldset>
  );
}
