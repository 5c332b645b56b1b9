import path from "node:path";
import { startDatabase } from "../../supabase/local/stack";
import { repoRoot } from "../../supabase/local/paths";

/** What a test needs to reach the stack; passed from the global setup to test files. */
export interface TestStackEnv {
  databaseUrl: string;
  supabaseUrl?: string;
  anonKey?: string;
  serviceRoleKey?: string;
  appUrl?: string;
}

/**
 * Ports and folder of the test stack. Each can be overridden so several engineers (or agents) can run suites side by
 * side in one checkout without sharing a cluster: TEST_DATA_DIR, TEST_PG_PORT, TEST_GATEWAY_PORT, TEST_APP_PORT.
 */
export function testStackSettings() {
  return {
    dataDir: path.resolve(process.env.TEST_DATA_DIR ?? path.join(repoRoot, ".data", "test")),
    postgresPort: Number(process.env.TEST_PG_PORT ?? 54432),
    gatewayPort: Number(process.env.TEST_GATEWAY_PORT ?? 54431),
    appPort: Number(process.env.TEST_APP_PORT ?? 3100),
  };
}

export async function startTestStack(_opts: { withApp: boolean }) {
  const s = testStackSettings();
  const db = await startDatabase({
    dataDir: s.dataDir,
    postgresPort: s.postgresPort,
    log: (l) => console.log(`[test-stack] ${l}`),
  });
  const env: TestStackEnv = { databaseUrl: db.databaseUrl };
  // Postgres keeps running between local runs (fast reruns, and parallel runs may share it); CI stops it.
  return { env, stop: async () => (process.env.CI ? db.stop() : undefined) };
}
