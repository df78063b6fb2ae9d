import { describe, expect, it } from 'vitest';
import { tenantPageInput } from '../../../cli/build/tenantPage';
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
});
