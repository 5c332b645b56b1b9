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

export const TEST_PORTS = { postgres: 54432, gateway: 54431, app: 3100 } as const;

export async function startTestStack(_opts: { withApp: boolean }) {
  const db = await startDatabase({
    dataDir: path.join(repoRoot, ".data", "test"),
    postgresPort: TEST_PORTS.postgres,
    log: (l) => console.log(`[test-stack] ${l}`),
  });
  const env: TestStackEnv = { databaseUrl: db.databaseUrl };
  return { env, stop: () => db.stop() };
}
