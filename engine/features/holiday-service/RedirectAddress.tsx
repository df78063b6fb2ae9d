import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';
import { useSalutationOptions } from '../../account/changes/addressContext';
import { AddressFields } from '../../account/changes/AddressFields';
import { useSupportedCountries } from '../../account/changes/countries';
import type { PostalField, PostalValues } from '../../account/changes/postalAddress';
import { requiredAddressFields } from '../../domain/addressChange';
import type { AddressField, AddressRuleContext } from '../../domain/addressRules';

/**
 * The holiday address of a redirect (§3 "businessPartner (redirect target only)", §5 "redirect
 * requires a valid address", engine/domain/holidayService.ts holidayAddressErrors): the address
 * form of the account kit, the countries the goods recipient may be delivered to.
 */
export function RedirectAddress({
  subscription: s,
  values,
  onChange,
  errors,
  ruleContext,
}: {
  subscription: Subscription;
  values: PostalValues;
  onChange: (field: PostalField, value: string) => void;
  errors: Partial<Record<AddressField, string>>;
  ruleContext: AddressRuleContext;
}) {
  const { t } = useTranslation();
  const countries = useSupportedCountries(s.id, 'WE', values.countryCode);
  const salutations = useSalutationOptions(true, values.salutationCode);
  const required = requiredAddressFields(ruleContext, values.salutationCode, values.company1);
  return (
    <AddressFields
      legend={t('holiday-service.setup.address')}
      values={values}
      // Without `organisation` the fields are the postal ones only.
      onChange={(field, value) => onChange(field as PostalField, value)}
      errors={errors}
      required={required}
      addressLines={ruleContext.addressLines}
      salutations={salutations}
      countries={countries.options}
    />
  );
}
