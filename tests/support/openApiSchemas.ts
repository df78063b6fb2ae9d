/**
 * The operator API's OpenAPI document as JSON Schema 2020-12: ajv's 2020 dialect in
 * strict mode, so an unknown keyword or a broken `$ref` in a component fails, and each component
 * is a validator for the real records and answers of the API tests.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM (as in server/http/validateBody.ts).
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

const DOCUMENT_ID = 'https://portal.invalid/operator/v1/openapi.json';

export interface OpenApiSchemas {
  names: string[];
  /** The validator of `#/components/schemas/<name>`, its `$ref`s resolved within the document. */
  validator(name: string): ValidateFunction;
}

export function openApiSchemas(document: Record<string, unknown>): OpenApiSchemas {
  // allowUnionTypes as the server's record validator (type: ["number", "string"] for amounts);
  // discriminator as the server's body validator (OpenAPI's keyword, the acknowledgement's `status`).
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, discriminator: true });
  addFormats(ajv);
  // The document's own top-level fields are not JSON Schema keywords: declared as annotations so
  // strict mode passes the document itself and stays strict inside every component.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
  ajv.addSchema(document, DOCUMENT_ID);
  const components = document.components as { schemas: Record<string, unknown> };
  return {
    names: Object.keys(components.schemas),
    validator(name) {
      const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
      if (!validate) throw new Error(`no component schema ${name}`);
      return validate;
    },
  };
}
