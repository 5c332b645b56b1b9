import { z } from "zod";

/**
 * The one check for text that is stored or sent on to Postgres. Postgres text and jsonb cannot hold U+0000, and a lone
 * UTF-16 surrogate (half of a pair, e.g. "\ud800") is no character at all: either made a write fail with 22P05 or
 * 22021 (a 500 DATABASE_ERROR) instead of the caller's 422. Every request schema with free text uses `safeText()`;
 * a free-form JSON object (saved-search params, chat filters) uses `safeJsonRecord()`.
 */
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSAFE_TEXT_MESSAGE = "must not contain NUL characters or unpaired surrogates";
/** Names the reason for the interface's translated message (lib/i18n/validation.ts `messageKey`). */
const UNSAFE_TEXT_PARAMS = { messageKey: "unsafeText" };

/** True when `s` holds no NUL and no unpaired surrogate. */
export function isSafeText(s: string): boolean {
  return !UNSAFE_TEXT.test(s);
}

/** A string refused (422) when it holds NUL or an unpaired surrogate; chain `.trim()`, `.min()`, `.max()` as usual. */
export const safeText = () => z.string().refine(isSafeText, { message: UNSAFE_TEXT_MESSAGE, params: UNSAFE_TEXT_PARAMS });

/** Whether every string in a JSON value (object keys included) is safe text. */
export function isSafeJson(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isSafeText(value);
  if (value === null || typeof value !== "object") return true;
  // Request bodies are capped in size; the depth bound only keeps a pathological nesting from the stack.
  if (depth > 64) return false;
  if (Array.isArray(value)) return value.every((v) => isSafeJson(v, depth + 1));
  return Object.entries(value).every(([k, v]) => isSafeText(k) && isSafeJson(v, depth + 1));
}

/** A free-form JSON object whose strings (keys and values, at any depth) are all safe text. */
export const safeJsonRecord = () => z.record(z.string(), z.unknown()).refine((r) => isSafeJson(r), { message: UNSAFE_TEXT_MESSAGE, params: UNSAFE_TEXT_PARAMS });

/**
 * An absolute http(s) URL: the only kind the service stores as a link (a judgment's source, a publication). javascript:
 * and data: URLs parse as URLs, so z.url() alone lets them through.
 */
export const httpUrlSchema = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).refine(isSafeText, { message: UNSAFE_TEXT_MESSAGE, params: UNSAFE_TEXT_PARAMS });

/** The render-time check of a stored link: true only for an absolute http(s) URL (older rows were not checked). */
export function isHttpUrl(value: unknown): value is string {
  return httpUrlOf(value) !== null;
}

/** The parsed URL when `value` is an http(s) URL, else null (one parse, for callers that also need the URL). */
export function httpUrlOf(value: unknown): URL | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}
