/** Content codings our HTTP server writes itself (server/app/static-assets.ts). */
export type Coding = "br" | "gzip" | "identity";

/** Smaller answers are sent as they are, as Next's compression middleware leaves them. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The best coding the client accepts among those at hand (RFC 9110 Accept-Encoding: q=0 refuses a coding, `*` stands
 * for every coding the header does not name).
 */
export function pickCoding(acceptEncoding: string | undefined, available: { br: boolean; gzip: boolean }): Coding {
  if (!acceptEncoding) return "identity";
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    weights.set(coding.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get("*") ?? 0) > 0;
  if (available.br && accepts("br")) return "br";
  if (available.gzip && accepts("gzip")) return "gzip";
  return "identity";
}
