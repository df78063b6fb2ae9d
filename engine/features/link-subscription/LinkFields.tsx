import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { settingIn } from '../../domain/language';
import { ORDER_NUMBER_MAX_LENGTH, ZIP_CODE_MAX_LENGTH } from '../../domain/fieldRules';
import { useTenantSettings } from '../../account/capabilityContext';
import { InputField, RadioGroup, SelectField } from '../../ui/fields';
import type { LinkSubscription } from './useLinkSubscription';

/**
 * The fields of the link form, those the tenant asks for (linkFields, engine/domain/
 * linkSubscription.ts): publication, order or business partner number, last name, zip code, the
 * gift question and, when the server asks for it, the account's e-mail address (portal-core.md §5).
 */
export function LinkFields({ link: { fields, form, set, publications } }: { link: LinkSubscription }) {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const settings = useTenantSettings();
  const { values, errors } = form;
  return (
    <>
      {fields.publication && (
        <SelectField
          label={t('link-subscription.publication')}
          required
          value={values.publication}
          onChange={(e) => set('publication')(e.target.value)}
          error={errors.publication}
        >
          <option value="">{t('link-subscription.choosePublication')}</option>
          {publications.map((p) => (
            <option key={p.publication} value={p.publication}>
              {p.description}
            </option>
          ))}
        </SelectField>
      )}
      {fields.orderNumber && (
        <InputField
          label={t('link-subscription.orderNumber')}
          required
          inputMode="numeric"
          autoComplete="off"
          maxChars={ORDER_NUMBER_MAX_LENGTH}
          tooLongKey="shell.orderNumberTooLong"
          value={values.orderNumber}
          // §5: digits only; never cut — more than 10 stay and the field says so.
          onChange={(e) => set('orderNumber')(e.target.value.replace(/\D/g, ''))}
          error={errors.orderNumber}
        />
      )}
      {fields.orderNumber &&
        config.tenant &&
        settingIn(settings.orderNumberExampleImageUrl, i18n.language) && (
          // The image in the screen's language when the tenant gives one per locale.
          <img
            className="order-number-example"
            src={settingIn(settings.orderNumberExampleImageUrl, i18n.language)}
            alt={t('link-subscription.orderNumberExample')}
          />
        )}
      {fields.bpNumber && (
        <InputField
          label={t('link-subscription.bpNumber')}
          required
          inputMode="numeric"
          maxChars={10}
          value={values.bpNumber}
          onChange={(e) => set('bpNumber')(e.target.value.replace(/\D/g, ''))}
          error={errors.bpNumber}
        />
      )}
      {fields.lastName && (
        <InputField
          label={t('link-subscription.lastName')}
          required
          autoComplete="family-name"
          value={values.lastName}
          onChange={(e) => set('lastName')(e.target.value)}
          error={errors.lastName}
        />
      )}
      <InputField
        label={t('link-subscription.zipcode')}
        required
        autoComplete="postal-code"
        maxChars={ZIP_CODE_MAX_LENGTH}
        value={values.zipcode}
        onChange={(e) => set('zipcode')(e.target.value)}
        error={errors.zipcode}
      />
      {fields.giftQuestion && (
        <RadioGroup
          legend={t('link-subscription.giftQuestion')}
          required
          name="gift"
          options={[
            { value: 'yes', label: t('link-subscription.giftYes') },
            { value: 'no', label: t('link-subscription.giftNo') },
          ]}
          value={values.gift}
          onChange={set('gift')}
          error={errors.preferredRole}
        />
      )}
    </>
  );
}
