// @vitest-environment jsdom
/**
 * A setting that is one value or one per locale (orderNumberExampleImageUrl) is a choice
 * of shapes in the studio: a per-locale value shows its two URLs, not "[object Object]" in a text
 * field that would save text over it.
 */
import { readFileSync } from 'node:fs';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { groupSchema, perLocaleFields, shapeChoice, studioGroups } from '../../studio/groups';

const schema = JSON.parse(readFileSync('schemas/tenant.schema.json', 'utf8')) as RJSFSchema;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('studio: one value or one per locale', () => {
  it('turns a list of types into a choice of the two shapes, and leaves other settings alone', () => {
    const choice = shapeChoice(schema.properties!.orderNumberExampleImageUrl as RJSFSchema);
    expect(choice.type).toBeUndefined();
    expect((choice.anyOf as RJSFSchema[]).map((option) => option.type)).toEqual(['string', 'object']);
    expect(shapeChoice(schema.properties!.logoUrl as RJSFSchema)).toBe(schema.properties!.logoUrl);
  });

  it('shows a per-locale value as its URLs and a single one as one field', async () => {
    const group = studioGroups(schema).find((g) => g.keys.includes('orderNumberExampleImageUrl'))!;
    const tab = groupSchema(schema, group);
    const only = {
      type: 'object',
      definitions: tab.definitions,
      properties: { orderNumberExampleImageUrl: tab.properties!.orderNumberExampleImageUrl },
    } as RJSFSchema;
    const render = async (value: unknown) => {
      const host = document.createElement('div');
      document.body.append(host);
      const root = createRoot(host);
      await act(async () =>
        root.render(
          <Form schema={only} validator={validator} formData={{ orderNumberExampleImageUrl: value }} />,
        ),
      );
      const values = [...host.querySelectorAll('input')].map((input) => input.value);
      act(() => root.unmount());
      return values;
    };
    const perLocale = await render({
      'de-DE': 'https://img.example/auftrag.svg',
      'en-GB': 'https://img.example/order.svg',
    });
    expect(perLocale).toEqual(
      expect.arrayContaining(['https://img.example/auftrag.svg', 'https://img.example/order.svg']),
    );
    expect(perLocale).not.toContain('[object Object]');
    expect(await render('https://img.example/one.svg')).toContain('https://img.example/one.svg');
  });
});

describe('studio: one field per locale', () => {
  const locales = (schema.definitions!.locale as RJSFSchema).enum as string[];

  it('gives a per-locale setting a field per listed locale and takes no other key', () => {
    const group = studioGroups(schema).find((g) => g.keys.includes('announcement'))!;
    const localizedHtml = groupSchema(schema, group).definitions!.localizedHtml as RJSFSchema;
    expect(Object.keys(localizedHtml.properties!)).toEqual(locales);
    expect(localizedHtml.additionalProperties).toBe(false);
    // A locale added to the schema's list gets its field from the setting's own rule.
    const withThird = perLocaleFields(schema.definitions!.localizedHtml as RJSFSchema, [...locales, 'fr-FR']);
    expect(withThird.properties!['fr-FR']).toEqual(
      (schema.definitions!.localizedHtml as RJSFSchema).additionalProperties,
    );
  });

  it('draws no button that would add a key other than a locale', async () => {
    const group = studioGroups(schema).find((g) => g.keys.includes('announcement'))!;
    const tab = groupSchema(schema, group);
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    await act(async () =>
      root.render(
        <Form
          schema={
            {
              type: 'object',
              definitions: tab.definitions,
              properties: { announcement: tab.properties!.announcement },
            } as RJSFSchema
          }
          validator={validator}
          formData={{ announcement: { html: { 'de-DE': '<p>Hallo</p>' }, variant: 'info' } }}
        />,
      ),
    );
    const buttons = [...host.querySelectorAll('button')].map((b) => b.getAttribute('title') ?? b.textContent);
    act(() => root.unmount());
    expect(buttons.filter((label) => /add/i.test(label ?? ''))).toEqual([]);
  });
});
