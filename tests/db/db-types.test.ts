import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DATABASE_TYPES_PATH, generateDatabaseTypes } from "../../server/cli/db-types";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

const checkedIn = () => readFileSync(path.join(__dirname, "..", "..", DATABASE_TYPES_PATH), "utf8");

describe("lib/supabase/database.types.ts", () => {
  it("equals what the generator writes from the migrated database", async () => {
    const fresh = await generateDatabaseTypes(pool);
    // Not toBe: a diff of two 900-line strings would bury the one instruction that matters.
    if (fresh !== checkedIn()) {
      expect.fail(`${DATABASE_TYPES_PATH} is stale: the migrated database has other tables, types or functions. Run \`npm run db:types\` against a migrated database (DATABASE_URL) and commit the result.`);
    }
  });

  it("notices a new function, with its arguments and result columns typed", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query(
        `create function public.db_types_probe(p_ids uuid[], p_note text default null)
           returns table(id uuid, total bigint, meta jsonb) language sql as $$ select null::uuid, 0::bigint, null::jsonb $$`,
      );
      const text = await generateDatabaseTypes(client);
      expect(text).not.toBe(checkedIn());
      expect(text).toContain(
        [
          "      db_types_probe: {",
          "        Args: {",
          "          p_ids: string[] | null;",
          "          p_note?: string | null;",
          "        };",
          "        Returns: {",
          "          id: string;",
          "          meta: Json;",
          "          total: number;",
          "        }[];",
          "      };",
        ].join("\n"),
      );
    } finally {
      await client.query("rollback");
      client.release();
    }
  });

  it("is deterministic and leaves date-named partitions out", async () => {
    const [a, b] = [await generateDatabaseTypes(pool), await generateDatabaseTypes(pool)];
    expect(a).toBe(b);
    const { rows } = await pool.query<{ n: number }>(
      "select count(*)::int as n from pg_class where relispartition and relname like 'app\\_events\\_%'",
    );
    expect(rows[0].n).toBeGreaterThan(0);
    expect(a).toContain("      app_events: {");
    expect(a).not.toMatch(/app_events_y\d{4}m\d{2}|app_events_default/);
  });
});
