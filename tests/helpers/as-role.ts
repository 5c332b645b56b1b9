import type pg from "pg";

export type ApiRole = "anon" | "authenticated" | "service_role";

/**
 * Run `fn` inside one transaction as an API role, the way the REST layer does (basejump's authenticate_as): SET LOCAL
 * ROLE plus the JWT claims in request.jwt.claims, so auth.uid() and RLS see that caller. Commits when `fn` resolves,
 * rolls back (and rethrows) when it throws; pass `{ rollback: true }` to discard the work either way, and `before` to
 * run setup as the pool's owner inside the same transaction.
 */
export async function asRole<T>(
  pool: pg.Pool,
  role: ApiRole,
  claims: Record<string, unknown> | null,
  fn: (client: pg.PoolClient) => Promise<T>,
  opts: { rollback?: boolean; before?: (client: pg.PoolClient) => Promise<void> } = {},
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    // Setup that needs the owner's rights (e.g. inserting judgments) runs in the same transaction, before the switch.
    if (opts.before) await opts.before(client);
    await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims ?? { role })]);
    await client.query(`set local role ${role}`);
    const result = await fn(client);
    await client.query(opts.rollback ? "rollback" : "commit");
    return result;
  } catch (e) {
    await client.query("rollback").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** Claims of a signed-in user, as Supabase Auth puts them in the access token. */
export function userClaims(userId: string, email = `${userId.slice(0, 8)}@example.org`): Record<string, unknown> {
  return { sub: userId, role: "authenticated", email, aud: "authenticated" };
}
