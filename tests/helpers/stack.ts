import { inject } from "vitest";
import pg from "pg";
import type { TestStackEnv } from "./test-stack";

/** Addresses of the running test stack (see tests/setup/global-setup.ts). */
export function stackEnv(): TestStackEnv {
  return inject("stack");
}

/** A pg pool on the test database as its owner (superuser); close it in afterAll. */
export function adminPool(): pg.Pool {
  return new pg.Pool({ connectionString: stackEnv().databaseUrl, max: 4 });
}
