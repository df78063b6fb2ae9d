// @vitest-environment jsdom
/**
 * A setting that is one value or one per locale (orderNumberExampleImageUrl, issue 22) is a choice
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
import { groupSchema, shapeChoice, studioGroups } from '../../studio/groups';

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
