import { useMemo, useState } from 'react';
import { DEFAULT_OPEN_COLOR } from '../engine/domain/theme';
import { groupSchema, studioGroups, studioUiSchema, type StudioGroup } from './groups';
import { issuesToErrorSchema, pointerSegments } from './fieldErrors';
import type { StudioFormContext } from './widgets';
import { editorText as t } from './pageLang';
import { PreviewSection, ReviewDialog, SettingsSection, StudioBar } from './StudioParts';
import { tabValidator } from './formValidators';
import { useStudio, type Tenant, type ThemePresets } from './useStudio';

/** The theme colours in effect: the preset's, with the tenant's overrides (what the validator checks). */
function colorsOf(data: Tenant, presets: ThemePresets): Record<string, string> {
  const theme = (data.theme ?? {}) as { preset?: string; tokens?: { colors?: Record<string, string> } };
  // As the build resolves them (resolveThemeTokens): a preset without `open` has the default.
  return {
    open: DEFAULT_OPEN_COLOR,
    ...(presets[theme.preset ?? '']?.colors ?? {}),
    ...(theme.tokens?.colors ?? {}),
  };
}

/**
 * The portal studio (docs/operators.md "Operators: the studio"): a tenant file as a form generated
 * from schemas/tenant.schema.json, the validator's problems at their fields while typing, the
 * portal itself live at 360 and 1280 px beside it, and a save that shows the diff and writes
 * minimal edits. Its state and calls are useStudio's; its bar, settings, preview and review
 * dialog are StudioParts'.
 */
export function StudioApp() {
  const studio = useStudio();
  const { schema, presets, data, fileId, message, draft, preview, reviewing } = studio;
  const { issues } = draft;
  const [tab, setTab] = useState<StudioGroup['id']>('brand');

  const groups = useMemo(() => (schema ? studioGroups(schema) : []), [schema]);
  const uiSchema = useMemo(() => (schema ? studioUiSchema(schema, tab) : {}), [schema, tab]);
  const group = groups.find((g) => g.id === tab);
  const tabSchema = useMemo(
    () => (schema && group ? groupSchema(schema, group) : undefined),
    [schema, group],
  );
  const validator = useMemo(
    () => (group && tabSchema ? tabValidator(group.id, tabSchema) : undefined),
    [group, tabSchema],
  );
  const extraErrors = useMemo(
    () => issuesToErrorSchema(issues, group ? new Set(group.keys) : undefined),
    [issues, group],
  );
  const formContext: StudioFormContext = useMemo(
    () => ({ colors: data ? colorsOf(data, presets) : {} }),
    [data, presets],
  );
  const groupOf = (pointer: string) => groups.find((g) => g.keys.includes(pointerSegments(pointer)[0] ?? ''));

  if (!schema || !data || !fileId || !group || !tabSchema || !validator) {
    return (
      <main className="studio-loading">
        <h1>{t('title')}</h1>
        <p role="status">{message ?? t('loading')}</p>
      </main>
    );
  }

  return (
    <div className="studio">
      <StudioBar studio={studio} fileId={fileId} />
      {message && (
        <p className="studio-message" role="status">
          {message}
        </p>
      )}
      <main className="studio-main">
        <SettingsSection
          issues={issues}
          warnings={draft.warnings}
          groups={groups}
          tab={tab}
          onTab={setTab}
          onIssue={(pointer) => setTab(groupOf(pointer)?.id ?? tab)}
          form={{ fileId, group, tabSchema, validator, uiSchema, data, formContext, extraErrors }}
          onChange={studio.onTabChange}
        />
        <PreviewSection draft={draft} preview={preview} />
      </main>
      {reviewing.review && <ReviewDialog fileId={fileId} reviewing={reviewing} review={reviewing.review} />}
    </div>
  );
}
