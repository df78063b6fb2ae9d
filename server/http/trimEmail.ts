import type { RequestHandler } from 'express';

/**
 * portal-core.md §5: e-mail addresses are trimmed before they are checked (people paste them with
 * spaces). Goes before `validateBody` on every route that takes an e-mail.
 */
export const trimEmail: RequestHandler = (req, _res, next) => {
  if (typeof req.body?.email === 'string') req.body.email = req.body.email.trim();
  next();
};
