// @vitest-environment jsdom
/**
 * The field kit's RadioGroup (engine/ui/fields.tsx): a fieldset named by its legend (starred when
 * required, portal-core.md §5), radios sharing one name, descriptions under the labels, and the
 * group's error announced with the group; as picture cards (the offers, the e-card templates), a
 * bare group whose options carry their own classes, with a lead and the options in a list.
 */
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { RadioGroup } from '../../../engine/ui/fields';
import { FIRST_INVALID, firstInvalidField } from '../../../engine/ui/focusFirstError';
import { cleanUp, click, portalConfig, render } from '../../support/renderScreen';

afterEach(cleanUp);

function Choice({ error }: { error?: string }) {
  const [value, setValue] = useState<'a' | 'b' | ''>('');
  return (
    <>
      <RadioGroup
        legend="Pick one"
        name="pick"
        required
        className="pick"
        options={[
          { value: 'a', label: 'Apples' },
          { value: 'b', label: 'Pears', description: 'Ripe in autumn' },
        ]}
        value={value}
        onChange={setValue}
        error={error}
      />
      <p data-testid="chosen">{value}</p>
    </>
  );
}

describe('RadioGroup', () => {
  it('names the group by its legend, stars it when required and checks what is chosen', async () => {
    const { page } = await render(<Choice />, { path: '/', portal: portalConfig(['core']) });
    const group = page.querySelector('fieldset.choice.pick')!;
    expect(group.querySelector('legend')!.textContent).toBe('Pick one *');
    const radios = [...group.querySelectorAll<HTMLInputElement>('input[type="radio"][name="pick"]')];
    expect(radios.map((radio) => [radio.value, radio.checked])).toEqual([
      ['a', false],
      ['b', false],
    ]);
    expect(radios[1].closest('label')!.className).toBe('choice-option');
    expect(radios[1].closest('label')!.querySelector('.choice-text')!.textContent).toBe('Ripe in autumn');
    expect(group.hasAttribute('aria-describedby')).toBe(false);
    expect(group.querySelector(FIRST_INVALID)).toBeNull();
    await click(radios[1]);
    expect(radios[1].checked).toBe(true);
    expect(page.querySelector('[data-testid="chosen"]')!.textContent).toBe('b');
  });

  it('announces its error with the group', async () => {
    const { page } = await render(<Choice error="Choose one, please." />, {
      path: '/',
      portal: portalConfig(['core']),
    });
    const group = page.querySelector('fieldset')!;
    const error = document.getElementById(group.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe('Choose one, please.');
    // Its radios are marked, so the focus after a refused submit (engine/ui/focusFirstError.ts)
    // lands on the group rather than skipping it.
    const radios = [...group.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(firstInvalidField(page)).toBe(radios[0]);
    // A refused choice: the chosen radio is the one to land on.
    await click(radios[1]);
    expect(firstInvalidField(page)).toBe(radios[1]);
  });

  it("as picture cards: no choice frame, the cards' own classes, a lead, a list, and disabled as a whole", async () => {
    const { page } = await render(
      <RadioGroup
        bare
        className="cards"
        legend="Templates"
        name="card"
        lead={<p className="lead">Filter</p>}
        listClassName="card-list"
        options={[
          { value: 'x', label: <img alt="" />, className: 'card is-chosen', testId: 'card' },
          { value: 'y', label: <img alt="" />, className: 'card', testId: 'card' },
        ]}
        value="x"
        onChange={() => {}}
        disabled
        error="Choose a template."
      />,
      { path: '/', portal: portalConfig(['core']) },
    );
    const group = page.querySelector('fieldset')!;
    expect(group.className).toBe('cards');
    expect(group.disabled).toBe(true);
    expect(group.children[1].className).toBe('lead');
    const labels = [...group.querySelectorAll('ul.card-list > li > label')];
    expect(labels.map((label) => [label.className, label.getAttribute('data-testid')])).toEqual([
      ['card is-chosen', 'card'],
      ['card', 'card'],
    ]);
    expect(labels[0].querySelector<HTMLInputElement>('input[type="radio"][name="card"]')!.checked).toBe(true);
    expect(document.getElementById(group.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Choose a template.',
    );
  });
});
