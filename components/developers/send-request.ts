/** What a "Try it" request answered, as the developers page shows it. */
export interface TryAnswer {
  status: number;
  remaining: string | null;
  body: string;
}

/** A typed JSON body as sent (re-serialised), or null when it is not JSON; an empty box is `{}`. */
export function jsonPayload(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text || "{}"));
  } catch {
    return null;
  }
}

/**
 * Send one /api/v1 request from the developers page with the key typed there (never stored): the key alone decides
 * under /api/v1, so no cookies go. A JSON answer is pretty-printed; anything else (an event stream) is shown as it came.
 */
export async function sendTryRequest(url: string, method: string, key: string, payload: string | undefined): Promise<TryAnswer> {
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { "X-API-Key": key } : {}), ...(payload !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: payload,
    credentials: "omit",
  });
  const text = await res.text();
  let body = text;
  try {
    body = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  return { status: res.status, remaining: res.headers.get("x-ratelimit-remaining"), body };
}
