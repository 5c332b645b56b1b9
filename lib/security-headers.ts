/**
 * Security headers on every answer (security review M2), the one list next.config.ts gives Next and the static-file
 * server (server/app/static-assets.ts) adds itself. Pages get their Content-Security-Policy (with a per-request nonce)
 * from middleware.ts; API answers, which the middleware does not see, get a deny-all one (JSON is never rendered as a
 * document). A CSP for every answer must not also match pages: two policies are both enforced.
 */
export interface HeaderPair {
  key: string;
  value: string;
}

export function everyAnswerHeaders(production: boolean): HeaderPair[] {
  return [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    // Nothing in the app uses these features; a framed or injected script cannot either.
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
    // Legacy twin of CSP frame-ancestors 'none' for browsers without CSP 2.
    { key: "X-Frame-Options", value: "DENY" },
    // HTTPS only in production (a dev server on http://localhost must stay reachable).
    ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
  ];
}

export const API_ANSWER_HEADERS: HeaderPair[] = [
  { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
];
