import DOMPurify from 'dompurify';
import { useState } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps, ObjectFieldTemplateProps, RJSFSchema, WidgetProps } from '@rjsf/utils';
import { CONTRAST_PAIRS, contrastRatio, formatContrastRatio } from '../engine/domain/theme';

/** What the widgets need besides their own value: the theme colours in effect (preset + overrides). */
export interface StudioFormContext {
  colors: Record<string, string>;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * A theme colour: a picker and the #rrggbb text side by side, and the WCAG contrast ratio against
 * each colour it is paired with (engine/domain/theme.ts CONTRAST_PAIRS, the pairs `portal validate`
 * checks), computed as the operator picks.
 */
export function ContrastColorWidget(props: WidgetProps) {
  const { id, value, onChange, name, disabled, readonly, registry } = props;
  const context = (registry.formContext ?? { colors: {} }) as StudioFormContext;
  const current = typeof value === 'string' ? value : '';
  const colors = { ...context.colors, ...(HEX.test(current) ? { [name]: current } : {}) };
  const pairs = CONTRAST_PAIRS.filter((pair) => pair.foreground === name || pair.background === name);
  return (
    <div className="studio-color">
      <input
        type="color"
        aria-label={`${name} colour picker`}
        value={HEX.test(current) ? current.toLowerCase() : (colors[name] ?? '#000000')}
        disabled={disabled || readonly}
        onChange={(event) => onChange(event.target.value)}
      />
      <input
        id={id}
        type="text"
        className="studio-color-text"
        value={current}
        placeholder={colors[name] ? `${colors[name]} (preset)` : '#rrggbb'}
        disabled={disabled || readonly}
        spellCheck={false}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      />
      <ul className="studio-contrast" aria-label={`contrast of ${name}`}>
        {pairs.map((pair) => {
          const other = pair.foreground === name ? pair.background : pair.foreground;
          const a = colors[pair.foreground];
          const b = colors[pair.background];
          if (!a || !b || !HEX.test(a) || !HEX.test(b)) return null;
          const ratio = contrastRatio(a, b);
          const ok = ratio >= pair.minimum;
          return (
            <li key={other} className={ok ? 'ok' : 'fail'}>
              <span className="swatch" style={{ background: b, color: a }}>
                Aa
              </span>{' '}
              {formatContrastRatio(ratio)} against {other} {ok ? '✓' : `✗ needs ${pair.minimum}:1`}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Tenant HTML (announcement, login message, widget texts): the source and its sanitized preview. */
export function HtmlWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly } = props;
  const html = typeof value === 'string' ? value : '';
  return (
    <div className="studio-html">
      <textarea
        id={id}
        rows={4}
        value={html}
        disabled={disabled || readonly}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      />
      <div
        className="studio-html-preview"
        aria-label="sanitized preview"
        dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }}
      />
    </div>
  );
}

const CoreSelectWidget = getDefaultRegistry().widgets.SelectWidget;

/**
 * The selects of the form, with a label of their own where the form generator gives none: the
 * choice between the shapes of a setting (groups.ts shapeChoice, its `__anyof_select`) has no
 * <label>, which screen readers and axe report (select-name).
 */
export function LabelledSelectWidget(props: WidgetProps) {
  const choosesShape = /__(any|one)of_select$/.test(props.name);
  return (
    <>
      {choosesShape && (
        <label className="studio-shape-label" htmlFor={props.id}>
          {props.label}
        </label>
      )}
      <CoreSelectWidget {...props} />
    </>
  );
}

export const studioWidgets = {
  contrastColor: ContrastColorWidget,
  html: HtmlWidget,
  SelectWidget: LabelledSelectWidget,
};

/**
 * The texts of a tenant, one tab per locale: each tab holds that
 * locale's overrides with rjsf's add and remove buttons.
 */
export function LocaleTabsTemplate(props: ObjectFieldTemplateProps) {
  const [active, setActive] = useState(props.properties[0]?.name);
  const id = props.fieldPathId?.$id ?? 'locale-tabs';
  return (
    <fieldset id={id}>
      <legend>{props.title}</legend>
      {props.description && <p className="field-description">{props.description}</p>}
      <div role="tablist" className="studio-tabs" aria-label={props.title}>
        {props.properties.map((property) => (
          <button
            key={property.name}
            type="button"
            role="tab"
            id={`${id}-tab-${property.name}`}
            aria-selected={property.name === active}
            aria-controls={`${id}-panel-${property.name}`}
            onClick={() => setActive(property.name)}
          >
            {property.name}
          </button>
        ))}
      </div>
      {props.properties.map((property) => (
        <div
          key={property.name}
          role="tabpanel"
          id={`${id}-panel-${property.name}`}
          aria-labelledby={`${id}-tab-${property.name}`}
          hidden={property.name !== active}
        >
          {property.content}
        </div>
      ))}
    </fieldset>
  );
}

interface FeatureSettings {
  features?: string[];
  publicationBlacklists?: Record<string, string[]>;
}

const errorsAt = (schema: unknown, ...path: Array<string | number>): string[] => {
  let node = schema as Record<string, unknown> | undefined;
  for (const key of path) node = node?.[key] as Record<string, unknown> | undefined;
  return (node?.__errors as string[] | undefined) ?? [];
};

/**
 * The feature switches with each feature's publication blacklist beside it: one row per
 * feature of the registry's flag list; the blacklist (publication codes, comma-separated) is
 * editable while the feature is on, and switching a feature off drops its blacklist (the validator
 * refuses a blacklist of a feature that is off).
 */
export function FeatureSwitchesField(props: FieldProps) {
  const data = (props.formData ?? {}) as FeatureSettings;
  const features = data.features ?? [];
  const blacklists = data.publicationBlacklists ?? {};
  const known = (
    ((props.registry.rootSchema.definitions?.featureFlag as RJSFSchema | undefined)?.enum ?? []) as string[]
  ).slice();
  const rows = [...known, ...features.filter((feature) => !known.includes(feature))];
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const description = (props.schema.properties?.features as RJSFSchema | undefined)?.description;
  const rootErrors = [
    ...errorsAt(props.errorSchema, 'features'),
    ...errorsAt(props.errorSchema, 'publicationBlacklists'),
  ];

  const change = (next: FeatureSettings) => {
    const cleaned: FeatureSettings = { ...data, ...next };
    if (
      cleaned.publicationBlacklists &&
      Object.keys(cleaned.publicationBlacklists).length === 0 &&
      data.publicationBlacklists === undefined
    )
      delete cleaned.publicationBlacklists;
    props.onChange(cleaned, props.fieldPathId.path);
  };
  const toggle = (feature: string, on: boolean) => {
    const nextBlacklists = { ...blacklists };
    if (!on) delete nextBlacklists[feature];
    change({
      features: on ? [...features, feature] : features.filter((f) => f !== feature),
      publicationBlacklists: nextBlacklists,
    });
  };
  const setBlacklist = (feature: string, text: string) => {
    setDrafts((before) => ({ ...before, [feature]: text }));
    const codes = text.split(/[\s,;]+/).filter(Boolean);
    const nextBlacklists = { ...blacklists };
    if (codes.length) nextBlacklists[feature] = codes;
    else delete nextBlacklists[feature];
    change({ publicationBlacklists: nextBlacklists });
  };

  return (
    <fieldset className="studio-features">
      <legend>features</legend>
      {description && <p className="field-description">{description}</p>}
      {rootErrors.length > 0 && (
        <ul className="error-detail">
          {rootErrors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
      <ul className="studio-feature-list">
        {rows.map((feature) => {
          const on = features.includes(feature);
          const index = features.indexOf(feature);
          const errors = [
            ...(index >= 0 ? errorsAt(props.errorSchema, 'features', index) : []),
            ...errorsAt(props.errorSchema, 'publicationBlacklists', feature),
          ];
          const inputId = `feature-${feature}-blacklist`;
          return (
            <li key={feature} className={errors.length ? 'has-error' : undefined}>
              <label className="studio-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={on}
                  onChange={(event) => toggle(feature, event.target.checked)}
                />{' '}
                {feature}
              </label>
              <label htmlFor={inputId} className="visually-hidden">
                {feature}: publicationBlacklists
              </label>
              <input
                id={inputId}
                className="studio-blacklist"
                disabled={!on}
                placeholder={on ? 'off for publications: codes, comma-separated' : ''}
                value={drafts[feature] ?? (blacklists[feature] ?? []).join(', ')}
                onChange={(event) => setBlacklist(feature, event.target.value)}
              />
              {errors.length > 0 && (
                <ul className="error-detail">
                  {errors.map((error) => (
                    <li key={error}>{error}</li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

export const studioFields = { featureSwitches: FeatureSwitchesField };
