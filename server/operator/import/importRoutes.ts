import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Router, type RequestHandler } from 'express';
import { HttpError, notFound } from '../../http/errors';
import { requestTenant } from '../../tenancy/tenantContext';
import { requireScope } from '../keys/operatorAuth';
import { validQuery, validateQuery } from '../../http/validateBody';
import { guardOperatorQuery } from '../operatorInputGuard';
import type { OperatorImportQuery } from '../../../schemas/generated/operator-import-query';
import type { OperatorRouterFactory } from '../operatorApi';
import { ORDER_SYSTEM_ENTITIES, orderSystemEntity } from '../entities/orderSystemEntities';
import { withTenantLanguages } from '../entities/orderSystemRecords';
import {
  fileSource,
  formatProblem,
  importSources,
  makeImportFolder,
  removeImportFolder,
  removeStaleImportFolders,
} from './importRecords';

/** Largest file one call takes (a million subscriptions are about 400 MB of NDJSON). */
export const IMPORT_UPLOAD_LIMIT_BYTES = 2 * 1024 ** 3;

/**
 * `POST /operator/v1/imports/<entity>` (scope import; docs/going-live.md "Going live with your order system",
 * 3. Import, "Through the API"): the body is the entity's NDJSON file (`Content-Type:
 * application/x-ndjson`, gzipped with `Content-Encoding: gzip` if the client likes), streamed to a
 * temporary file and imported exactly as `portal import` does; `?full=true` makes it a full sync of
 * the entity (`portal import --full`; it deletes, so the key needs the scope write too),
 * `allowDeletes=N` its guard (`--allow-deletes N%`).
 * Answers 200 with the summary, or 422 `import_refused` listing every problem as
 * `file:line /pointer message` (nothing written then: the import is one transaction). An upload cut
 * off part-way wrote nothing and is simply sent again.
 */
export const importRouter: OperatorRouterFactory = ({ db }) => {
  const router = Router();
  // `?full=true[&allowDeletes=N]`: a full sync (importDeletions.ts), checked before the upload is read.
  const query = [guardOperatorQuery, validateQuery('operator-import-query')];
  // A full sync deletes what its file leaves out (with allowDeletes=100, everything): deleting is the
  // write scope's (docs/going-live.md "Scopes"), so an upload key alone adds and changes records only.
  const fullSyncDeletes: RequestHandler = (req, res, next) =>
    validQuery<OperatorImportQuery>(res).full === true
      ? requireScope('write', 'import,write')(req, res, next)
      : next();
  router.post('/imports/:entity', requireScope('import'), ...query, fullSyncDeletes, async (req, res) => {
    const entity = orderSystemEntity(req.params.entity as string);
    if (!entity)
      throw notFound(
        `There is no entity "${String(req.params.entity)}"; import one of ${ORDER_SYSTEM_ENTITIES.map((e) => e.name).join(', ')}.`,
      );
    if (!req.is('application/x-ndjson'))
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the file as Content-Type: application/x-ndjson, one record per line.',
      );
    // A file of a million records is some hundred MB of NDJSON and a tenth of it gzipped: the upload
    // may come compressed (RFC 9110 §8.4), and the limit counts what it unpacks to.
    const encoding = String(req.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    const gzipped = encoding === 'gzip' || encoding === 'x-gzip';
    if (!gzipped && encoding !== 'identity')
      throw new HttpError(
        415,
        'unsupported_content_encoding',
        `The upload's Content-Encoding "${encoding.slice(0, 40)}" is not one this API unpacks: send the file as it is, or gzipped with Content-Encoding: gzip.`,
      );
    // The upload is as large as the file: one left by a killed server goes before another comes.
    await removeStaleImportFolders();
    const folder = await makeImportFolder('upload');
    try {
      const file = path.join(folder, `${entity.name}.ndjson`);
      let received = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          if (received > IMPORT_UPLOAD_LIMIT_BYTES)
            done(
              new HttpError(
                413,
                'payload_too_large',
                `An upload may be ${IMPORT_UPLOAD_LIMIT_BYTES / 1024 ** 3} GiB at most; split the file or use portal import.`,
              ),
            );
          else done(null, chunk);
        },
      });
      // Whether the client went away mid-upload: told by the request itself, not by the state a
      // failed pipeline leaves it in (a full disk destroys the request too).
      let aborted = false;
      req.once('aborted', () => (aborted = true));
      const written = gzipped
        ? pipeline(req, createGunzip(), limit, createWriteStream(file))
        : pipeline(req, limit, createWriteStream(file));
      await written.catch((error: unknown) => {
        if (error instanceof HttpError) throw error;
        // The client went away mid-upload (ECONNRESET, a premature close): its fault, not the
        // database's, which a bare connection error would be taken for (server/db/database.ts
        // isDatabaseUnavailable, which /readyz reports as an outage). Nothing was imported.
        const code = (error as { code?: string }).code;
        if (aborted || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE')
          throw new HttpError(
            400,
            'upload_incomplete',
            'The upload ended before the whole file arrived: nothing was imported. Send the file again.',
          );
        // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR for a stream cut short): the body is not gzip.
        if (gzipped && typeof code === 'string' && code.startsWith('Z_'))
          throw new HttpError(
            400,
            'upload_not_gzip',
            'The upload says Content-Encoding: gzip but is not a whole gzip stream: nothing was imported. Send the file gzipped in full, or without the header.',
          );
        throw error;
      });
      const result = await withTenantLanguages(requestTenant(res), () =>
        importSources(db, requestTenant(res).id, [fileSource(entity, file, `${entity.name}.ndjson`)], {
          recordAs: 'api',
          full: validQuery<OperatorImportQuery>(res).full === true,
          maxDeletePercent: validQuery<OperatorImportQuery>(res).allowDeletes,
        }),
      );
      if (!result.ok)
        throw new HttpError(
          422,
          'import_refused',
          `${result.problemCount}${result.stoppedEarly ? ' or more' : ''} ${result.problemCount === 1 && !result.stoppedEarly ? 'problem' : 'problems'} in the file: nothing was written.`,
          result.problems.map((problem) => ({ ...problem, text: formatProblem(problem) })),
        );
      res.json({ entities: result.entities });
    } finally {
      await removeImportFolder(folder);
    }
  });
  return router;
};
