/**
 * The checks of each settings tab's form, compiled when the studio is built (buildStudio.ts
 * formValidatorsPlugin): the page's policy lets no check be compiled in the browser.
 */
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import compiled from 'virtual:studio-form-validators';
import type { StudioGroup } from './groups';

const byTab = compiled as Partial<Record<StudioGroup['id'], ValidatorFunctions>>;

/** The validator of a tab's form; `tabSchema` is the schema its checks were compiled from (groupSchema). */
export function tabValidator(tab: StudioGroup['id'], tabSchema: RJSFSchema): ValidatorType {
  const functions = byTab[tab];
  if (!functions) throw new Error(`The studio was built without the checks of the "${tab}" tab.`);
  return createPrecompiledValidator(functions, tabSchema);
}
