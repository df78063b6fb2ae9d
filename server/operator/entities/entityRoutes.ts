import { Router, type Response } from 'express';
import { HttpError, badRequest, notFound } from '../../http/errors';
import {
  UnknownReferencesError,
  deleteRecord,
  mergeStaged,
  readStoredRecord,
  stageRecords,
} from '../../store/orderSystemStore';
import { requestTenant } from '../../tenancy/tenantContext';
import { requireScope } from '../keys/operatorAuth';
import { idempotentWrites } from '../idempotency';
import type { OperatorRouterFactory } from '../operatorApi';
import { guardOperatorQuery, operatorJsonBody } from '../operatorInputGuard';
import { ORDER_SYSTEM_ENTITIES, type OrderSystemEntity, orderSystemEntity } from './orderSystemEntities';
import { DEFAULT_MAX_LINE_BYTES, formatByteLimit } from '../import/importRecords';
import { readKey, readRecord, readVersion } from './orderSystemRecords';

function entityOf(name: string): OrderSystemEntity {
  const entity = orderSystemEntity(name);
  if (!entity)
    throw notFound(
      `There is no entity "${name}"; the operator API writes ${ORDER_SYSTEM_ENTITIES.map((e) => e.name).join(', ')}.`,
    );
  return entity;
}

/**
 * The path's key, checked before any query sees it: the number of `~` parts the entity's key has,
 * each within its field's limits (orderSystemRecords.ts readKey). A key that cannot be a record's
 * is the client's 400, not a lookup that PostgreSQL refuses.
 */
function keyOf(entity: OrderSystemEntity, raw: unknown): string {
  const key = String(raw);
  const read = readKey(entity, key);
  if (!read.ok)
    throw badRequest('validation_failed', `This is not a key of ${entity.name}.`, [
      { field: 'params/key', message: read.message },
    ]);
  return key;
}

/**
 * A record the import could not take is not taken here either: at most the import's longest line
 * (DEFAULT_MAX_LINE_BYTES), measured as the import measures a line, the record's JSON in UTF-8. Else
 * the nightly full sync would refuse what the upserts kept. Answered as a body over the parser's
 * limit is (server/http/errors.ts): 413 `payload_too_large`.
 */
function refuseTooLong(entity: OrderSystemEntity, record: unknown): void {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(record), 'utf8');
  } catch {
    return; // nested too deep to write back: readRecord refuses it by its depth
  }
  if (bytes > DEFAULT_MAX_LINE_BYTES)
    throw new HttpError(
      413,
      'payload_too_large',
      `The ${entity.name} record is ${bytes.toLocaleString('en-GB')} bytes as JSON (UTF-8): a record may be at most ${formatByteLimit(DEFAULT_MAX_LINE_BYTES)}, the longest line the import takes, so that every record an upsert keeps imports too.`,
    );
}

function refuseStale(
  res: Response,
  key: string,
  version: number,
  storedVersion: number,
  kind: 'write' | 'delete' = 'write',
): never {
  throw new HttpError(
    409,
    'stale_version',
    kind === 'delete'
      ? `A delete is the record's next version: this one's (${version}) is not newer than the stored version of ${key} (${storedVersion}), so nothing was deleted.`
      : `The stored version of ${key} (${storedVersion}) is newer than this write's (${version}), or equal with other content: nothing was changed.`,
    { key, version, storedVersion, tenant: requestTenant(res).id },
  );
}

/**
 * The order system's writes of single records: idempotent upserts and deletes of each entity the
 * order system owns (docs/going-live.md "Going live with your order system"):
 *
 *   PUT    /operator/v1/<entity>/<key>             the whole record, with its version   (scope write)
 *   DELETE /operator/v1/<entity>/<key>?version=N   the record, N its next version       (scope write)
 *   GET    /operator/v1/<entity>/<key>             the stored record and version        (scope read)
 *
 * `<key>` is the record's key, its parts joined by `~` where it has several (a payment:
 * `<subscriptionId>~<id>`). A write whose version is older than the stored one answers 409
 * `stale_version` and changes nothing; the same record again answers `unchanged`. The merge is the
 * bulk import's (server/store/orderSystemStore.ts), one record in one transaction.
 */
export const entityRouter: OperatorRouterFactory = ({ db }) => {
  const router = Router();
  // Behind each write route's scope check, never before it (idempotency.ts).
  const idempotent = idempotentWrites(db);

  router.get('/:entity/:key', requireScope('read'), async (req, res) => {
    const entity = entityOf(req.params.entity as string);
    const key = keyOf(entity, req.params.key);
    const stored = await readStoredRecord(db, requestTenant(res).id, entity, key);
    if (!stored) throw notFound(`There is no ${entity.name} record ${key}.`);
    res.json(stored);
  });

  router.put('/:entity/:key', requireScope('write'), operatorJsonBody, idempotent, async (req, res) => {
    const entity = entityOf(req.params.entity as string);
    keyOf(entity, req.params.key);
    refuseTooLong(entity, req.body);
    const tenant = requestTenant(res);
    const read = readRecord(entity, req.body, 1, tenant);
    if (!read.ok)
      throw badRequest(
        'validation_failed',
        `The ${entity.name} record is not valid.`,
        read.problems.map((p) => ({ field: p.pointer, message: p.message })),
      );
    const { staged } = read;
    if (staged.key !== req.params.key)
      throw badRequest(
        'key_mismatch',
        `The record's key is ${staged.key}, the path names ${String(req.params.key)}: write a record to its own path.`,
      );
    const tenantId = tenant.id;
    try {
      const counts = await db.transaction(async (tx) => {
        await stageRecords(tx, [staged]);
        return mergeStaged(tx, tenantId, entity);
      });
      const [refused] = counts.refusedRecords;
      if (refused) refuseStale(res, staged.key, staged.version, refused.storedVersion);
      const result = counts.created ? 'created' : counts.updated ? 'updated' : 'unchanged';
      res
        .status(counts.created ? 201 : 200)
        .json({ entity: entity.name, key: staged.key, version: staged.version, result });
    } catch (error) {
      if (error instanceof UnknownReferencesError)
        throw new HttpError(
          422,
          'unknown_reference',
          'The record names rows that do not exist: write them first.',
          error.problems.map((p) => ({ field: p.pointer, message: p.message })),
        );
      throw error;
    }
  });

  router.delete('/:entity/:key', requireScope('write'), guardOperatorQuery, idempotent, async (req, res) => {
    const entity = entityOf(req.params.entity as string);
    const key = keyOf(entity, req.params.key);
    const read = readVersion(entity, req.query.version);
    if (!read.ok)
      throw badRequest(
        'validation_failed',
        "A delete names the record's next version, newer than the stored one: ?version=<number or RFC 3339 time>.",
        [{ field: 'query/version', message: read.message }],
      );
    const { version } = read;
    const outcome = await db.transaction((tx) =>
      deleteRecord(tx, requestTenant(res).id, entity, key, version),
    );
    if (outcome.outcome === 'refused') refuseStale(res, key, version, outcome.storedVersion, 'delete');
    if (outcome.outcome === 'referenced')
      throw new HttpError(
        409,
        'still_referenced',
        `Other records still name ${entity.name} ${key}: delete or change them first.`,
      );
    res.json({ entity: entity.name, key, version, result: outcome.outcome });
  });

  return router;
};
