import type { OperatorErrorCase, OperatorOperation } from '../openapi/operatorOperation';
import { ORDER_SYSTEM_ENTITIES } from '../entities/orderSystemEntities';
import { DEFAULT_MAX_LINE_BYTES, formatByteLimit } from './importRecords';
import { IMPORT_UPLOAD_LIMIT_BYTES } from './importRoutes';
import { DEFAULT_MAX_DELETE_PERCENT } from './importDeletions';

/**
 * importRoutes.ts as the OpenAPI document describes it: the route is
 * `/imports/:entity`, the document names each entity's upload with the schema of its lines.
 */
export const IMPORT_OPERATIONS: readonly OperatorOperation[] = ORDER_SYSTEM_ENTITIES.map(
  (entity): OperatorOperation => {
    const duplicates: Record<number, OperatorErrorCase[]> = entity.duplicates
      ? { 409: [{ code: 'duplicate_value', when: `${entity.duplicates} Nothing is written.` }] }
      : {};
    const id = entity.name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    return {
      method: 'post',
      path: `/imports/${entity.name}`,
      operationId: `import${id[0].toUpperCase()}${id.slice(1)}`,
      tag: 'Import',
      scope: 'import',
      summary: `Import an NDJSON file of ${entity.name}`,
      description: `The file \`${entity.name}.ndjson\` as \`portal import\` reads it: one ${entity.name} record per line, each valid under the schema named in \`x-itemSchema\` (the same as PUT /${entity.name}/{key} takes). Every line is checked before anything is written (valid UTF-8, at most ${formatByteLimit(DEFAULT_MAX_LINE_BYTES)} a line, a valid record, no key twice), and the file is merged in one transaction: a file with a bad line, or a record naming a row that does not exist, is refused whole and nothing is written. At most ${IMPORT_UPLOAD_LIMIT_BYTES / 1024 ** 3} GiB, unpacked: the file may be sent gzipped with \`Content-Encoding: gzip\`. An upload cut off part-way wrote nothing and is simply sent again; the records' versions make an identical file change nothing. With \`full=true\` the file is the complete set of ${entity.name}: the records it does not name are deleted in the same transaction (\`deleted\` counts them), unless they are more than \`allowDeletes\` percent (default ${DEFAULT_MAX_DELETE_PERCENT}) of those stored, or other records still name one of them: then nothing is written. A full sync deletes, so it needs the scope \`write\` as well.`,
      querySchema: 'operator-import-query',
      body: {
        mediaType: 'application/x-ndjson',
        lineSchema: entity.schema,
        description: `One ${entity.name} record (JSON) per line.`,
        ...(entity.name === 'publications'
          ? {
              example:
                '{"version":1,"publication":"TAZ","clientId":"101","description":"Die Tageszeitung"}\n{"version":1,"publication":"WOCHE","clientId":"101","description":"Die Woche"}\n',
            }
          : {}),
      },
      responses: {
        200: {
          description: 'Imported: what was created, updated, left and refused.',
          schema: 'operator-import-summary',
        },
      },
      errors: {
        400: [
          {
            code: 'validation_failed',
            when: 'A query parameter is not valid (details name each): `full` is true or false, `allowDeletes` a whole number from 0 to 100 and only with `full`. Nothing was imported.',
          },
          {
            code: 'upload_incomplete',
            when: 'The upload ended before the whole file arrived: nothing was imported; send it again.',
          },
          {
            code: 'upload_not_gzip',
            when: 'The upload says Content-Encoding: gzip but is not a whole gzip stream: nothing was imported.',
          },
        ],
        413: [
          {
            code: 'payload_too_large',
            when: `The file is larger than ${IMPORT_UPLOAD_LIMIT_BYTES / 1024 ** 3} GiB: split it, or use portal import.`,
          },
        ],
        415: [
          { code: 'unsupported_media_type', when: 'The Content-Type is not application/x-ndjson.' },
          {
            code: 'unsupported_content_encoding',
            when: 'The Content-Encoding is neither gzip nor identity (none).',
          },
        ],
        ...duplicates,
        422: [
          {
            code: 'import_refused',
            when: 'Lines are not valid UTF-8, too long, not valid records, repeat a key, name rows that do not exist or are refused by the database; or, with full=true, the file would delete more than allowDeletes percent of the stored records, or a record to delete is still named by others (line 0, its `key` given); details list each as { file, line, pointer, message, key?, text } with text as `file:line /pointer message`. Nothing is written.',
          },
          {
            code: 'unknown_reference',
            when: 'A row the records name was deleted while the file was written: nothing is written; send the file again.',
          },
        ],
      },
    };
  },
);
