import { useMemo } from 'react';
import { useTranslation } from '../../core/translation';
import { useTenantSettings } from '../capabilityContext';
import { companySalutationCodes, salutationChoices } from '../../domain/addressChange';
import type { AddressRuleContext } from '../../domain/addressRules';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { localized } from '../../ui/localized';
import { todayIso } from './today';

/**
 * The tenant's side of the §5 address rules: address lines or street and number (the
 * `address-lines` feature, per publication), the company salutations, today; the same context the
 * server gives engine/domain/addressRules.ts addressErrors.
 */
export function useAddressRuleContext(
  publication: string | undefined,
  emailRequired: boolean,
): AddressRuleContext {
  const tenant = useTenantSettings();
  return useMemo(
    () => ({
      addressLines: isFeatureOn(tenant, 'address-lines', publication),
      companySalutations: companySalutationCodes(tenant.salutations.options),
      emailRequired,
      today: todayIso(),
    }),
    [tenant, publication, emailRequired],
  );
}

/**
 * The salutations a form offers, labelled in the screen's language: the user-selectable ones when
 * names may change (§5), all while they are locked; the partner's own stays in the list so it can be kept.
 */
export function useSalutationOptions(
  namesEditable: boolean,
  current?: string | null,
): Array<{ code: string; label: string }> {
  const tenant = useTenantSettings();
  const { i18n } = useTranslation();
  return useMemo(() => {
    const all = tenant.salutations.options;
    const offered = salutationChoices(all, namesEditable);
    const own = all.find((s) => s.code === current);
    const list = own && !offered.includes(own) ? [own, ...offered] : offered;
    return list.map((s) => ({ code: s.code, label: localized(s.title, i18n.language) }));
  }, [tenant.salutations.options, namesEditable, current, i18n.language]);
}
