/**
 * A second app server for a fault test, started with its own environment (e.g. SUPABASE_URL through a fault proxy)
 * so that breaking a part never disturbs the shared app other suites are using. Under `npm test` it reuses the
 * production build the runner made; run alone it follows TEST_APP_MODE like the shared app (development gets its own
 * dist folder, as two `next dev` cannot share one).
 */
import net from "node:net";
import { buildIsCurrent } from "../../supabase/local/next-build";
import { startTestApp, type TestApp } from "./test-app";
import type { TestStackEnv } from "./test-stack";

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
  const distEnv = mode === "development" ? { NEXT_DIST_DIR: `.next-extra-${port}` } : {};
  return startTestApp(stack, { port, mode, extraEnv: { ...distEnv, ...extraEnv } });
}
