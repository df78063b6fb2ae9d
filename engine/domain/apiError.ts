/**
 * An answer of /api that is not a success, as both sides see it: the server throws it and its
 * error middleware answers `{ error: { code, message, details } }` with the status
 * (schemas/api/error-body.schema.json); the portal's API client rebuilds it from that answer.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}
