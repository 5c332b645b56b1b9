/** The post-sign-in destination from `?next=`: only same-site paths, never `//host` or a scheme (open redirect). */
export function safeNext(next: string | null | undefined, fallback = "/search"): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f]/.test(next)) return fallback;
  return next;
}
