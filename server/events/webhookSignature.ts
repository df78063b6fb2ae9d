import { createHmac } from 'node:crypto';

/**
 * The Portal-Signature header of a webhook delivery (issue 8: "signed with HMAC-SHA256 over
 * timestamp and body", after Stripe's Stripe-Signature): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`. The timestamp is inside the signed text, so a receiver that refuses old
 * timestamps cannot be fed a recorded delivery again later; `v1` names the scheme so a second one
 * can be added beside it when the secret or the algorithm changes.
 */
export const SIGNATURE_HEADER = 'Portal-Signature';
export const EVENT_ID_HEADER = 'Portal-Event-Id';

export function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${signature}`;
}
