/**
 * The problems a refused request body lists (server/http/validateBody.ts): one shape of a `oneOf`
 * told apart by its constant, not every shape's errors at once.
 */
import express from 'express';
import { describe, expect, it } from 'vitest';
import { validateBody } from '../../../server/http/validateBody';
import type { HttpError } from '../../../server/http/errors';

/** The details of the 400 that validateBody answers for `body`, or null when it passes. */
function problemsOf(schema: string, body: unknown) {
  const check = validateBody(schema);
  try {
    check({ body } as express.Request, {} as express.Response, () => undefined);
    return null;
  } catch (error) {
    return (error as HttpError & { details?: unknown }).details;
  }
}

describe('a body that fits none of the shapes of a oneOf', () => {
  it('lists the problems of the shape its constant names: a rejection without its reason', () => {
    expect(problemsOf('operator-change-acknowledgement', { status: 'rejected' })).toEqual([
      { field: '/reason', message: 'is required' },
    ]);
    expect(
      problemsOf('operator-change-acknowledgement', { status: 'confirmed', reason: { 'en-GB': 'x' } }),
    ).toEqual([{ field: '/reason', message: 'is not allowed' }]);
  });

  it('names the constant with its values when the body has none of them', () => {
    expect(problemsOf('operator-change-acknowledgement', { status: 'maybe' })).toEqual([
      { field: '/status', message: 'must be one of "confirmed", "rejected"' },
    ]);
  });

  it('asks for the constant first when the body has none', () => {
    expect(problemsOf('operator-change-acknowledgement', {})).toEqual([
      { field: '/status', message: 'is required' },
    ]);
  });

  it("lists the problems inside the named shape's parts (a $ref), and only those", () => {
    expect(
      problemsOf('operator-change-acknowledgement', {
        status: 'rejected',
        reason: { 'de-DE': '', 'en-GB': 'x' },
      }),
    ).toEqual([{ field: '/reason/de-DE', message: 'must not be empty' }]);
    expect(
      problemsOf('operator-change-acknowledgement', { status: 'rejected', reason: { de: 'x' } }),
    ).toEqual([{ field: '/reason/de', message: 'is not a locale such as "de-DE" or "en-GB"' }]);
    expect(problemsOf('operator-change-acknowledgement', { status: 'rejected', reason: {} })).toEqual([
      { field: '/reason', message: 'must not be empty' },
    ]);
  });

  it('passes a body of one shape', () => {
    expect(problemsOf('operator-change-acknowledgement', { status: 'confirmed' })).toBeNull();
  });
});
