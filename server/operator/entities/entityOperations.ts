import type { OperatorOperation, OperatorParameter } from '../openapi/operatorOperation';
import { KEY_SEPARATOR, ORDER_SYSTEM_ENTITIES, fieldOf, type OrderSystemEntity } from './orderSystemEntities';
import { DEFAULT_MAX_LINE_BYTES, formatByteLimit } from '../import/importRecords';
import { keyShape } from './orderSystemRecords';

/**
 * How the path names a record: its key fields, joined by `~` where there are several, each within
 * its field's limits in the record schema (orderSystemRecords.ts readKey checks them: 400 otherwise).
 */
function keyParameter(entity: OrderSystemEntity): OperatorParameter {
  const fields = entity.key.map(fieldOf);
  return {
    name: 'key',
    description: `${
      fields.length === 1
        ? `The record's \`${fields[0]}\`.`
        : `The record's ${fields.map((f) => `\`${f}\``).join(', ')}, joined by \`${KEY_SEPARATOR}\` (e.g. \`${fields.map((f) => `<${f}>`).join(KEY_SEPARATOR)}\`).`
    } Each part within the limits of its field in the record's schema; a key field never holds a \`${KEY_SEPARATOR}\`${
      fields.length > 1 ? ', but for the last where its schema allows one' : ''
    }.`,
    required: true,
    schema: { type: 'string', minLength: 1, ...keyShape(entity) },
  };
}

const KEY_REFUSED = {
  code: 'validation_failed',
  when: 'The path key has the wrong number of `~` parts, or a part its field refuses (details name `params/key`).',
};

const IDEMPOTENCY_KEY: OperatorParameter = {
  name: 'Idempotency-Key',
  description:
    'Any unique text (a UUID): a retry with the same key and the same request within a day gets the first answer again, with `Idempotent-Replayed: true`, and nothing is done twice (server/operator/idempotency.ts).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
};

const IDEMPOTENCY_ERRORS = {
  400: [
    {
      code: 'invalid_idempotency_key',
      when: 'Idempotency-Key is empty, longer than 255 or not visible ASCII.',
    },
  ],
  409: [
    {
      code: 'idempotency_key_in_use',
      when: 'A request with this Idempotency-Key is still being processed: send it again after Retry-After.',
    },
  ],
  422: [
    {
      code: 'idempotency_key_reused',
      when: 'The Idempotency-Key was used for another request within the last day.',
    },
  ],
} as const;

const STALE = {
  code: 'stale_version',
  when: 'The stored version is newer than this one (or equal with other content): nothing was changed; details carry version and storedVersion.',
};

/**
 * entityRoutes.ts as the OpenAPI document describes it: the routes are `/:entity/:key`,
 * the document names every entity's path with that entity's record schema, so a client generator
 * gets one typed call per entity.
 */
export const ENTITY_OPERATIONS: readonly OperatorOperation[] = ORDER_SYSTEM_ENTITIES.flatMap(
  (entity): OperatorOperation[] => {
    const path = `/${entity.name}/{key}`;
    const id = entity.name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    const Id = id[0].toUpperCase() + id.slice(1);
    const keyParameters = [keyParameter(entity)];
    return [
      {
        method: 'put',
        path,
        operationId: `put${Id}`,
        tag: 'Records',
        scope: 'write',
        summary: `Create or update a record of ${entity.name}`,
        description: `The whole record with the order system's version: fields left out are their defaults, not the stored values${entity.children ? `, and \`${entity.children.field}\` replaces the stored list` : ''}. A record older than the stored one is refused with 409 and changes nothing; the same record again answers \`unchanged\`.`,
        pathParameters: keyParameters,
        headerParameters: [IDEMPOTENCY_KEY],
        body: {
          mediaType: 'application/json',
          schema: entity.schema,
          description: `A ${entity.name} record.`,
        },
        responses: {
          201: { description: 'The record was created.', schema: 'operator-write-result', headers: REPLAYED },
          200: {
            description: 'The record was updated, or was stored like this already (`unchanged`).',
            schema: 'operator-write-result',
            headers: REPLAYED,
          },
        },
        errors: {
          400: [
            {
              code: 'validation_failed',
              when: 'The record does not match its schema, or the path key is not a key of this entity; details list every problem by pointer (`params/key` for the path).',
            },
            { code: 'key_mismatch', when: "The record's key is not the path's." },
            ...IDEMPOTENCY_ERRORS[400],
          ],
          413: [
            {
              code: 'payload_too_large',
              when: `The record is longer than ${formatByteLimit(DEFAULT_MAX_LINE_BYTES)} as JSON (UTF-8), the longest line the import takes.`,
            },
          ],
          409: [
            STALE,
            ...(entity.duplicates ? [{ code: 'duplicate_value', when: entity.duplicates }] : []),
            ...IDEMPOTENCY_ERRORS[409],
          ],
          422: [
            {
              code: 'unknown_reference',
              when: 'The record names rows that do not exist (details by pointer): write them first.',
            },
            ...IDEMPOTENCY_ERRORS[422],
          ],
        },
      },
      {
        method: 'get',
        path,
        operationId: `get${Id}`,
        tag: 'Records',
        scope: 'read',
        summary: `The stored record of ${entity.name}`,
        description:
          'The record as stored, with its version as a number (an RFC 3339 version as milliseconds since 1970); fields without a value are left out.',
        pathParameters: keyParameters,
        responses: { 200: { description: 'The stored record.', schema: entity.schema } },
        errors: { 400: [KEY_REFUSED], 404: [{ code: 'not_found', when: 'There is no such record.' }] },
      },
      {
        method: 'delete',
        path,
        operationId: `delete${Id}`,
        tag: 'Records',
        scope: 'write',
        summary: `Delete a record of ${entity.name}`,
        description:
          'Deletes the record as of a version newer than the stored one; the portal remembers the deletion, so an older upsert arriving late is refused. The same delete again answers as done.',
        pathParameters: keyParameters,
        queryParameters: [
          {
            name: 'version',
            description:
              "The version of the deletion, like a record's `version`: a whole number from 0 to 9007199254740991, or an RFC 3339 time from 1970 to 9999.",
            required: true,
            schema: {
              anyOf: [
                { type: 'string', pattern: '^[0-9]{1,16}$' },
                { type: 'string', format: 'date-time', pattern: '^(19[7-9][0-9]|[2-9][0-9]{3})-' },
              ],
            },
            example: '7',
          },
        ],
        headerParameters: [IDEMPOTENCY_KEY],
        responses: {
          200: {
            description:
              '`deleted`, or `absent` when there was no such record (its deletion is remembered all the same).',
            schema: 'operator-write-result',
            headers: REPLAYED,
          },
        },
        errors: {
          400: [
            {
              code: 'validation_failed',
              when: 'The version is missing, or not a version a record could have (details name `query/version`); or the path key is not a key of this entity (`params/key`).',
            },
            ...IDEMPOTENCY_ERRORS[400],
          ],
          409: [
            STALE,
            {
              code: 'still_referenced',
              when: 'Other records still name this one: delete or change them first.',
            },
            ...IDEMPOTENCY_ERRORS[409],
          ],
          422: IDEMPOTENCY_ERRORS[422],
        },
      },
    ];
  },
);
