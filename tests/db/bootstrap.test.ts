import { afterAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

describe("supabase bootstrap migration", () => {
  it("creates the three API roles", async () => {
    const { rows } = await pool.query<{ rolname: string }>(
      "select rolname from pg_roles where rolname in ('anon','authenticated','service_role') order by 1",
    );
    expect(rows.map((r) => r.rolname)).toEqual(["anon", "authenticated", "service_role"]);
  });

  it("auth.uid(), auth.role() and auth.jwt() read request.jwt.claims", async () => {
    const client = await pool.connect();
    try {
      await client.query("begin");
      await client.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: "7d3f1c2e-0000-4000-8000-000000000001", role: "authenticated", email: "a@example.org" }),
      ]);
      await client.query("set local role authenticated");
      const { rows } = await client.query("select auth.uid()::text as uid, auth.role() as role, auth.jwt()->>'email' as email");
      expect(rows[0]).toEqual({ uid: "7d3f1c2e-0000-4000-8000-000000000001", role: "authenticated", email: "a@example.org" });
      await client.query("rollback");
    } finally {
      client.release();
    }
  });

  it("records applied migrations so a second run applies nothing", async () => {
    const { migrate } = await import("../../server/migrate");
    const { rows } = await pool.query("select current_database() as db");
    expect(rows[0].db).toBe("postgres");
    const url = new URL((await import("../helpers/stack")).stackEnv().databaseUrl);
    const result = await migrate(url.toString());
    expect(result.applied).toEqual([]);
    expect(result.skipped).toBeGreaterThan(0);
  });
});
