/**
 * Browser-side fetch helpers for the web tier under /api. Errors become `ApiRequestError` carrying the status and the
 * envelope's stable code (spec: Errors — `{detail: {code, message, ...}}`, or the rate-limit shape `{error, message}`).
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | null;
  /** The whole `detail` object (e.g. FILTER_TOO_LARGE carries total and cap; the guest 429 carries upgrade_url). */
  readonly detail: Record<string, unknown>;

  constructor(status: number, code: string | null, message: string, detail: Record<string, unknown>) {
    super(message);
    this.name = "ApiRequestError";
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Turn any error body into an ApiRequestError; never throws while doing so. */
export function errorFromBody(status: number, body: unknown): ApiRequestError {
  let detail: Record<string, unknown> = {};
  let code: string | null = null;
  let message = `Request failed (${status})`;
  if (isRecord(body)) {
    if (isRecord(body.detail)) {
      detail = body.detail;
      if (typeof detail.code === "string") code = detail.code;
      if (typeof detail.message === "string") message = detail.message;
    } else if (typeof body.detail === "string") {
      message = body.detail;
    } else {
      if (typeof body.error === "string") code = body.error;
      if (typeof body.message === "string") message = body.message;
      detail = body;
    }
  }
  return new ApiRequestError(status, code, message, detail);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
  status: number;
}

/** Fetch JSON from the web tier, keeping the response headers (the guest counter lives there). */
export async function apiFetchWithHeaders<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<ApiResponse<T>> {
  const { json, ...rest } = init ?? {};
  const headers = new Headers(rest.headers);
  headers.set("accept", "application/json");
  // Every write is JSON, even one without a body (a DELETE): the web tier refuses any other write (CSRF defence, 415).
  const method = (rest.method ?? "GET").toUpperCase();
  if (json !== undefined || (method !== "GET" && method !== "HEAD")) headers.set("content-type", "application/json");
  const res = await fetch(path, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    credentials: "same-origin",
  });
  const body = await readBody(res);
  if (!res.ok) throw errorFromBody(res.status, body);
  return { data: body as T, headers: res.headers, status: res.status };
}

export async function apiFetch<T>(path: string, init?: RequestInit & { json?: unknown }): Promise<T> {
  return (await apiFetchWithHeaders<T>(path, init)).data;
}

/** Build a query string, leaving out empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    sp.set(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : "";
}

export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
