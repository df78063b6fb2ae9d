/**
 * Texts of others ended as sentences: the rejected changes' notice and the rejection mail
 * (engine/features/orders/RejectedChanges.tsx, server/operator/changes/changeRejectedMail.ts).
 */

/**
 * A text of someone else's (an order system's reason) ended as a sentence, so the portal's own
 * sentence after it does not run on: "Outside our delivery area" becomes "Outside our delivery
 * area."; a text that ends in a full stop, question or exclamation mark or an ellipsis (before any
 * closing quote or bracket) stays as it is.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '' || /[.!?…:;][\s"'“”‘’»«›‹)\]]*$/u.test(trimmed)) return trimmed;
  return `${trimmed}.`;
}
