/**
 * The post-sign-in destination from `?next=`: only same-site paths, never `//host` or a scheme (open redirect).
 * The result goes into a Location header, which carries bytes, not text: everything past printable ASCII (spaces,
 * "ż", an ideographic space) is percent-encoded as UTF-8, as a browser would send it; text that cannot be encoded
 * (a lone surrogate) falls back. Escapes already in the path are kept as they are.
 */
export function safeNext(next: string | null | undefined, fallback = "/search"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(next)) return fallback;
  try {
    return next.replace(/[^\u0021-\u007e]+/g, (run) => encodeURIComponent(run));
  } catch {
    return fallback;
  }
}
