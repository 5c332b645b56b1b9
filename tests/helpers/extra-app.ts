/**
 * A second app server for a fault test, started with its own environment (e.g. SUPABASE_URL through a fault proxy)
 * so that breaking a part never disturbs the shared app other suites are using. Under `npm test` it reuses the
 * production build the runner made; run alone it follows TEST_APP_MODE like the shared app (development gets its own
 * dist folder, as two `next dev` cannot share one).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { buildIsCurrent } from "../../server/launcher/next-build";
import { startTestApp, type TestApp } from "./test-app";
import type { TestStackEnv } from "./test-stack";
import { repoRoot } from "../../server/paths";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startExtraApp(stack: TestStackEnv, extraEnv: Record<string, string | undefined> = {}): Promise<TestApp> {
  const port = await freePort();
  const built = buildIsCurrent(process.env.NEXT_DIST_DIR ?? ".next-test");
  const mode = built || process.env.TEST_APP_MODE === "production" ? "production" : "development";
  if (mode === "production") return startTestApp(stack, { port, mode, extraEnv });
  // `next dev` with a dist folder of its own adds that folder's types to tsconfig.json: put the file back and remove
  // the folder when the app stops, so a fault test leaves the checkout as it found it.
  const distDir = `.next-extra-${port}`;
  const tsconfig = path.join(repoRoot, "tsconfig.json");
  const original = readFileSync(tsconfig, "utf8");
  const app = await startTestApp(stack, { port, mode, extraEnv: { NEXT_DIST_DIR: distDir, ...extraEnv } });
  return {
    url: app.url,
    stop: async () => {
      await app.stop();
      writeFileSync(tsconfig, original);
      rmSync(path.join(repoRoot, distDir), { recursive: true, force: true });
    },
  };
}
