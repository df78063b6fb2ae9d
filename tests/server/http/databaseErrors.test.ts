/**
 * Which database errors are whose (docs/going-live.md "Going live with your order system"): 503
 * `database_unavailable` only when the database cannot be reached, and the errors a request's own
 * values cause as that request's 4xx — never a 500, never a 503 that tells a client to retry.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, isConnectionError } from '../../../server/db/database';
import { HttpError, databaseInputError, errorMiddleware } from '../../../server/http/errors';

const pg = (code: string, extra: Record<string, unknown> = {}): Error & { code: string } =>
  Object.assign(new Error(`pg error ${code}`), { code, ...extra });

describe('isConnectionError', () => {
  it('is true for refused and dropped connections, class 08 and a server shutting down or starting', () => {
    for (const error of [
      new DatabaseUnavailableError('down'),
      pg('ECONNREFUSED'),
      pg('08006'),
      pg('08003'),
      pg('57P01'),
      pg('57P03'),
      new Error('Connection terminated unexpectedly'),
    ])
      expect(isConnectionError(error), String(error)).toBe(true);
  });

  it("is false for 08P01: a statement sent with the wrong number of parameters is nobody's outage", () => {
    const error = pg('08P01', {
      message: 'bind message supplies 1 parameters, but prepared statement "s1" requires 2',
    });
    expect(isConnectionError(error)).toBe(false);
  });

  it('is false for the errors of bad values', () => {
    for (const code of ['22001', '22003', '22021', '22P02', '22P05', '23502', '23514', '23505', '42601'])
      expect(isConnectionError(pg(code)), code).toBe(false);
  });
});

describe('databaseInputError', () => {
  it('answers data exceptions, check, not-null and size refusals with 400 validation_failed naming the column', () => {
    const cases: Array<[Error & { code: string }, string, RegExp]> = [
      [pg('22001', { message: 'value too long for type character(10)' }), '/', /longer than its field holds/],
      [pg('22003'), '/', /outside the range/],
      [pg('22008'), '/', /date or time/],
      [pg('22021'), '/', /NUL/],
      [pg('22P05'), '/', /NUL, or an unpaired/],
      [pg('22P02'), '/', /type/],
      [pg('23514', { column: undefined }), '/', /rule of its table/],
      [pg('23502', { column: 'order_number' }), '/orderNumber', /is required/],
      [pg('54000'), '/', /too large/],
    ];
    for (const [error, field, message] of cases) {
      const answer = databaseInputError(error);
      expect(answer, error.code).toBeInstanceOf(HttpError);
      expect(answer).toMatchObject({ status: 400, code: 'validation_failed' });
      const [detail] = answer!.details as Array<{ field: string; message: string }>;
      expect(detail.field).toBe(field);
      expect(detail.message).toMatch(message);
    }
    expect(
      (
        databaseInputError(pg('22001', { message: 'value too long' }))!.details as Array<{ message: string }>
      )[0].message,
    ).toContain('the database says: value too long');
  });

  it('answers a unique value another row holds with 409 naming its fields, not its values', () => {
    const answer = databaseInputError(
      pg('23505', {
        detail: 'Key (tenant_id, client_id, order_number)=(t1, 101, 4000000123) already exists.',
      }),
    );
    expect(answer).toMatchObject({
      status: 409,
      code: 'duplicate_value',
      details: { fields: ['clientId', 'orderNumber'] },
    });
    expect(answer!.message).not.toContain('4000000123');
  });

  it('answers a row that is not there with 422 unknown_reference', () => {
    expect(databaseInputError(pg('23503'))).toMatchObject({ status: 422, code: 'unknown_reference' });
  });

  it('leaves connection failures, syntax errors and anything else alone', () => {
    for (const error of [pg('08006'), pg('08P01'), pg('42601'), pg('ECONNREFUSED'), new Error('boom'), null])
      expect(databaseInputError(error)).toBeUndefined();
  });
});

describe('errorMiddleware', () => {
  function answerTo(error: unknown) {
    const logged: Array<Record<string, unknown>> = [];
    const answer: { status?: number; body?: any } = {};
    const res = {
      setHeader: () => undefined,
      status(code: number) {
        answer.status = code;
        return this;
      },
      json(body: unknown) {
        answer.body = body;
        return this;
      },
    };
    // A path with an e-mail address in it (a licence's record key), logged as the request log keeps it.
    const req = {
      method: 'GET',
      originalUrl: '/api/subscriptions/1/payment-history/x~ann@example.org?page=9',
    };
    errorMiddleware((entry) => logged.push(entry))(error, req as never, res as never, () => undefined);
    return { ...answer, logged };
  }

  it("answers a data exception a route's checks let through with 400, without the database's words, and logs a warning", () => {
    const { status, body, logged } = answerTo(
      pg('22P02', { message: 'invalid input syntax for type bigint: "Infinity" in column offset' }),
    );
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: 'validation_failed', message: 'The request is not valid.' } });
    expect(logged).toMatchObject([
      { level: 'warn', code: '22P02', path: '/api/subscriptions/1/payment-history/x~…' },
    ]);
  });

  it("still answers any other error with 500 internal_error, a data exception of the server's own too", () => {
    for (const code of ['42601', '22012']) {
      const { status, body, logged } = answerTo(pg(code));
      expect(status, code).toBe(500);
      expect(body.error.code).toBe('internal_error');
      expect(logged[0].level).toBe('error');
    }
  });
});
