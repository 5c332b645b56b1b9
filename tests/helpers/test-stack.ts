import path from "node:path";
import type { JWK } from "jose";
import { startGateway } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { repoRoot } from "../../server/paths";
import { startDatabase } from "../../server/launcher/stack";
import { startMailCatcher } from "../../server/launcher/mail-catcher";
import { spawnWorker, stopChild } from "../../server/launcher/processes";
import { clearCorpus, corpusIsCurrent, corpusIsEmpty, seedCorpus } from "../../supabase/seed/corpus";

/** What a test needs to reach the stack; passed from the global setup to test files. */
export interface TestStackEnv {
  databaseUrl: string;
  supabaseUrl?: string;
  anonKey?: string;
  serviceRoleKey?: string;
  appUrl?: string;
  /** How the app at appUrl runs: a production build or `next dev`. */
  appMode?: "production" | "development";
  /** The gateway's Upstash REST bridge; absent when no Redis answered at REDIS_URL (default 127.0.0.1:6379). */
  upstashUrl?: string;
  upstashToken?: string;
  /** The search index folder shared by the app under test and the tests that build it. */
  searchDataDir?: string;
  /**
   * The stack's private signing JWK (a throwaway key of this run), so the attacker's suite can mint a correctly
   * signed but expired access token (tests/security).
   */
  signingJwk?: JWK;
  /** The test stack's SMTP server (server/launcher/mail-catcher.ts, an ephemeral port): every message lands in mail_messages. */
  smtpUrl?: string;
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

export async function startTestStack() {
  const s = testStackSettings();
  const log = (l: string) => console.log(`[test-stack] ${l}`);
  const db = await startDatabase({ dataDir: s.dataDir, postgresPort: s.postgresPort, log });
  // A small fixed slice of the demo corpus (it holds every known-answer judgment, all below index 600).
  // A data folder seeded by an older generator holds other texts than the tests generate: it is seeded again.
  const slice = { size: 600, seed: 7 };
  if (!(await corpusIsEmpty(db.databaseUrl)) && !(await corpusIsCurrent(db.databaseUrl, slice))) await clearCorpus(db.databaseUrl);
  if (await corpusIsEmpty(db.databaseUrl)) await seedCorpus(db.databaseUrl, slice);
  // Fresh keys every run: nothing outside this process holds them, and the gateway verifies only its own.
  const supabaseUrl = `http://127.0.0.1:${s.gatewayPort}`;
  const keys = await generateLocalKeys(supabaseUrl);
  const gateway = await startGateway({
    port: s.gatewayPort,
    databaseUrl: db.databaseUrl,
    privateJwk: keys.privateJwk,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    upstashToken: keys.upstashToken,
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    log,
    // Every suite signs up from this machine's one address, more than 30 in 5 minutes over a full run; the limit
    // itself is proven on gateways of its own (tests/security/unverified-mail.test.ts).
    signupRateLimit: { limit: 10_000, windowSeconds: 300 },
  });
  const mail = await startMailCatcher({ databaseUrl: db.databaseUrl, port: 0, log });
  gateway.setSmtpUrl(mail.url);
  // A real extraction worker on the stack's database, so API tests and journeys see jobs complete. It works
  // no scheduled job: a sync, topics rebuild or phrase count firing under a test would change what the test reads
  // (tests/db/scheduled-jobs.test.ts starts workers that do).
  // It shares the app's search folder: an admin upload's closing sync writes the index the app reads, and the
  // uploaded file waits beside it (lib/backend/imports).
  const worker = spawnWorker({ ...process.env, DATABASE_URL: db.databaseUrl, SCHEDULED_JOBS: "none", SEARCH_DATA_DIR: path.join(s.dataDir, "search") }, ["ignore", "ignore", "inherit"]);
  const env: TestStackEnv = {
    databaseUrl: db.databaseUrl,
    smtpUrl: mail.url,
    searchDataDir: path.join(s.dataDir, "search"),
    supabaseUrl: gateway.url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    signingJwk: keys.privateJwk,
    ...(gateway.upstash ? { upstashUrl: gateway.upstash.url, upstashToken: gateway.upstash.token } : {}),
  };
  return {
    env,
    stop: async () => {
      await stopChild(worker);
      await gateway.close();
      await mail.close();
      // Stops only a server this run started (a reused one is left running); a child postgres left behind would
      // keep the test runner alive.
      await db.stop();
    },
  };
}
