// @vitest-environment jsdom
/** The field kit's form state (engine/ui/formState.ts): values, touched, errors, set and reset. */
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFormState, type FormState } from '../../../engine/ui/formState';
import { cleanUp, portalConfig, render } from '../../support/renderScreen';

afterEach(cleanUp);

type Values = { name: string; kind: '' | 'a' | 'b' };
let form: FormState<Values, keyof Values | '/server'>;

function Probe() {
  form = useFormState<Values, keyof Values | '/server'>({ name: '', kind: '' });
  return null;
}

describe('useFormState', () => {
  it('sets values and marks them touched, keeps errors until reset, and resets to the first values', async () => {
    await render(<Probe />, { path: '/', portal: portalConfig(['core']) });
    expect(form.values).toEqual({ name: '', kind: '' });
    act(() => form.input('name')({ target: { value: 'Ada' } }));
    act(() => form.set('kind', 'b'));
    expect(form.values).toEqual({ name: 'Ada', kind: 'b' });
    expect(form.touched).toEqual({ name: true, kind: true });
    act(() => form.setErrors({ name: 'Too short', '/server': 'Refused' }));
    expect(form.errors).toEqual({ name: 'Too short', '/server': 'Refused' });
    act(() => form.reset({ kind: 'a' }));
    expect(form.values).toEqual({ name: '', kind: 'a' });
    expect(form.touched).toEqual({});
    expect(form.errors).toEqual({});
  });
});
