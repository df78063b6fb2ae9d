import { describe, expect, it } from 'vitest';
import { builtTenantPageInput, tenantPageInput } from '../../../tenant/page/tenantPage';
import { loadValidTenants } from '../../../cli/commands/loadValidTenants';

describe('the page config of a tenant', () => {
  it('carries the FAQ heading and categories but no FAQ entry: GET /api/faq serves them by session (portal-core.md §6)', async () => {
    const [stadtkurier] = await loadValidTenants(['stadtkurier']);
    const hidden = stadtkurier.faq.entries.find((entry) => !entry.public)!;
    const { config } = tenantPageInput(stadtkurier);
    const page = JSON.stringify(config);
    const faq = (config.tenant as unknown as { faq: Record<string, unknown> }).faq;
    expect(faq.entries).toBeUndefined();
    expect(faq.categories).toEqual(stadtkurier.faq.categories);
    expect(page).not.toContain(hidden.title['de-DE']!);
    expect(page).not.toContain(hidden.id);
  });

  it('in a built page: the same tenant, only its own texts and a text file per offered locale', async () => {
    const [technikwelt] = await loadValidTenants(['technikwelt']);
    const named: string[] = [];
    const built = builtTenantPageInput(technikwelt, (locale) => {
      named.push(locale);
      return `assets/texts.${locale}.x.json`;
    });
    const { config, themeCss } = tenantPageInput(technikwelt);
    expect(built.config.tenant).toEqual(config.tenant);
    expect(built.themeCss).toBe(themeCss);
    expect(named.sort()).toEqual([...technikwelt.locales].sort());
    expect(built.config.textFiles).toEqual(built.textFiles);
    expect(built.config.texts['de-DE']).toEqual(technikwelt.texts?.['de-DE'] ?? {});
  });
});
