/**
 * Webhook signing secrets in the Standard Webhooks form: `whsec_` followed by the
 * base64 of 24 to 64 random bytes; the decoded bytes are the HMAC-SHA256 key. The spec's table of
 * symmetric secrets gives "at least 24 bytes (192 bits, 512 maximum)", and its libraries in every
 * language strip the prefix and decode the rest, so a secret in any other form (a plain password, a
 * hex string) signs with a key the receiver's library never derives from it.
 *
 * The tenant validator (a literal `secret` in the file, a secretEnv variable set where it runs),
 * the webhook deliverer (the variables at every attempt) and `portal webhooks secret` share these
 * rules. No Buffer or node:crypto: atob, btoa and Web Crypto exist in Node 20 and in a browser alike.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_MIN_BYTES = 24;
export const WEBHOOK_SECRET_MAX_BYTES = 64;
/** What `portal webhooks secret` makes: 32 bytes, the size Standard Webhooks' own libraries generate. */
export const WEBHOOK_SECRET_DEFAULT_BYTES = 32;

/** Canonical standard base64 (with + and /, padded to a multiple of four). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type DecodedWebhookSecret = { key: Uint8Array } | { problem: string };

/**
 * The HMAC key of a secret, or what is wrong with it in words an operator can act on. The message
 * never repeats the value: it may come from an environment variable and end up in a log.
 */
export function decodeWebhookSecret(value: string): DecodedWebhookSecret {
  const form = `a Standard Webhooks secret is ${WEBHOOK_SECRET_PREFIX} followed by the base64 of ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES} random bytes`;
  if (!value.startsWith(WEBHOOK_SECRET_PREFIX))
    return { problem: `it does not start with ${WEBHOOK_SECRET_PREFIX} (${form})` };
  const encoded = value.slice(WEBHOOK_SECRET_PREFIX.length);
  if (encoded === '' || !BASE64.test(encoded))
    return { problem: `what follows ${WEBHOOK_SECRET_PREFIX} is not base64 (${form})` };
  const binary = atob(encoded);
  if (binary.length < WEBHOOK_SECRET_MIN_BYTES || binary.length > WEBHOOK_SECRET_MAX_BYTES)
    return { problem: `it decodes to ${binary.length} bytes (${form})` };
  return { key: Uint8Array.from(binary, (char) => char.charCodeAt(0)) };
}

/** The problem with a secret, or undefined when it is a good one. */
export function webhookSecretProblem(value: string): string | undefined {
  const decoded = decodeWebhookSecret(value);
  return 'problem' in decoded ? decoded.problem : undefined;
}

/** A new secret from the platform's cryptographic random source. */
export function generateWebhookSecret(bytes: number = WEBHOOK_SECRET_DEFAULT_BYTES): string {
  if (!Number.isInteger(bytes) || bytes < WEBHOOK_SECRET_MIN_BYTES || bytes > WEBHOOK_SECRET_MAX_BYTES)
    throw new RangeError(
      `a webhook secret has ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES} bytes, not ${bytes}`,
    );
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return `${WEBHOOK_SECRET_PREFIX}${btoa(String.fromCharCode(...random))}`;
}
