import { useMemo } from 'react';
import { useTranslation } from '../../core/translation';
import { useResource } from '../resource';
import { countryName } from '../../domain/countryNames';

/**
 * §5 "Country list limited to those supported for the subscription and role" (GET
 * /subscriptions/{id}/supported-countries?role=…), as options sorted by name in the screen's
 * language. The partner's current country stays in the list, so a locked or unusual country still
 * shows. A failed load leaves only that one (the server checks the country again).
 */
export function useSupportedCountries(subscriptionId: string, role: string, current?: string | null) {
  const { i18n } = useTranslation();
  const resource = useResource(`/subscriptions/${subscriptionId}/supported-countries?role=${role}`, (api) =>
    api.get<string[]>(
      `/subscriptions/${encodeURIComponent(subscriptionId)}/supported-countries?role=${encodeURIComponent(role)}`,
    ),
  );
  const codes = resource.state.status === 'ready' ? resource.state.data : undefined;
  const loading = resource.state.status === 'loading';
  const options = useMemo(() => {
    const all = new Set(codes ?? []);
    if (current) all.add(current);
    return [...all]
      .map((code) => ({ code, name: countryName(code, i18n.language) }))
      .sort((a, b) => a.name.localeCompare(b.name, i18n.language));
  }, [codes, current, i18n.language]);
  return { options, loading };
}
