import { createHmac } from 'node:crypto';

/**
 * Webhook deliveries are signed in the Standard Webhooks format, so receivers verify
 * with the official libraries in any language (docs/going-live.md "Verifying a delivery"). Three
 * headers:
 *  - `webhook-id`: the event's id, the same in every attempt (receivers skip ids they have seen);
 *  - `webhook-timestamp`: the Unix seconds of this attempt, inside the signed text, so a receiver
 *    that refuses old timestamps cannot be fed a recorded delivery again later;
 *  - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` per key,
 *    space-separated: during a key rotation every delivery carries one signature per secret and a
 *    receiver holding either one finds its match.
 * The keys are the bytes a `whsec_` secret decodes to (tenant/webhookSecret.ts).
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

export function webhookSignature(
  keys: readonly Uint8Array[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  if (keys.length === 0) throw new Error('a webhook delivery needs at least one signing key');
  const signed = `${id}.${timestampSeconds}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
}

/** The three signature headers of one attempt. */
export function webhookSignatureHeaders(
  keys: readonly Uint8Array[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestampSeconds),
    [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(keys, id, timestampSeconds, body),
  };
}
