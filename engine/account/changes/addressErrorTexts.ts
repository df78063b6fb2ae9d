import { useCallback } from 'react';
import { useTranslation } from '../../core/translation';
import type { AddressError, AddressField } from '../../domain/addressRules';
import { addressLimit } from './postalAddress';
import { textLength } from '../../domain/fieldRules';
import { postcodeExample } from '../../domain/addressRules';

/** The text keys of invalid entries that say more than "please check" (§5). */
const INVALID_KEYS: Partial<Record<AddressField, string>> = {
  zipcode: 'account.address.error.invalidPostcode',
  emailAddress: 'account.address.error.invalidEmail',
  phoneNumber: 'account.address.error.invalidPhone',
  dateOfBirth: 'account.address.error.invalidDateOfBirth',
};

/**
 * The problems an address form says before its first submit: a text over its limit, which the
 * field keeps whole and says as it is typed, as the portal's other fields do (engine/ui/fields.tsx
 * `maxChars`; docs/subscribers.md "no field drops what was typed"). The rest waits for the submit:
 * a field not filled in yet is no mistake while the person is still on the way to it.
 */
export const saidWhileTyping = <E extends { code: string }>(errors: readonly E[]): E[] =>
  errors.filter((error) => error.code === 'too_long');

/**
 * The messages of the §5 address rules (engine/domain/addressRules.ts addressErrors) and of the
 * server's `details.fields` codes, the first per field.
 */
export function useAddressErrorTexts(): (
  errors: ReadonlyArray<{ field: string; code: string }>,
  values?: Partial<Record<AddressField, string | null>>,
) => Partial<Record<AddressField, string>> {
  const { t } = useTranslation();
  return useCallback(
    (errors, values) => {
      const messages: Partial<Record<AddressField, string>> = {};
      for (const { field, code } of errors) {
        const key = field as AddressField;
        if (messages[key]) continue;
        switch (code as AddressError['code']) {
          case 'required':
            messages[key] = t('account.address.error.required');
            break;
          case 'too_long': {
            // With the value at hand, how many there are now, as every other field says it.
            const value = values?.[key];
            messages[key] = value
              ? t('shell.tooLong', { max: addressLimit(key, 'too_long'), count: textLength(value) })
              : t('account.address.error.tooLong', { max: addressLimit(key, 'too_long') });
            break;
          }
          case 'too_short':
            messages[key] = t('account.address.error.tooShort', { min: addressLimit(key, 'too_short') });
            break;
          case 'one_line':
            messages[key] = t('shell.oneLine');
            break;
          case 'not_printable':
            messages[key] = t('account.address.error.notPrintable');
            break;
          case 'too_early':
            messages[key] = t('account.address.error.tooEarly');
            break;
          case 'after_term_end':
            messages[key] = t('account.address.error.afterTermEnd');
            break;
          default: {
            // A postcode's message gives an example of the chosen country's form (addressRules POSTCODES).
            const example = key === 'zipcode' ? postcodeExample(values?.countryCode) : undefined;
            messages[key] = example
              ? t('account.address.error.invalidPostcodeOf', { example })
              : t(INVALID_KEYS[key] ?? 'account.address.error.invalid');
          }
        }
      }
      return messages;
    },
    [t],
  );
}
