/**
 * A host name as DNS compares it: in any case, and with or without the root's trailing dot
 * (`abo.example.de.` is `abo.example.de`). The tenant files' host checks and the server's look-up
 * of a Host header compare names through it, so they agree on what one host is.
 */
export function hostName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}
