import type pg from "pg";

/** Run `fn` in one transaction on a pooled client: commit on success, roll back on any error. */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const { client, release } = await checkout(pool);
  try {
    await client.query("begin");
    const out = await fn(client);
    await client.query("commit");
    return out;
  } catch (e) {
    await client.query("rollback").catch(() => undefined);
    throw e;
  } finally {
    release();
  }
}

/**
 * A pooled client that cannot crash the gateway: node-postgres emits 'error' on a checked-out client whose
 * connection breaks (e.g. `pg_terminate_backend` of its session, Postgres restarting), and an 'error' event with no
 * listener kills the process. The listener keeps the error; `release` removes it and hands a broken client back to
 * the pool to be destroyed instead of reused.
 */
export async function checkout(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: () => void }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (e: Error) => {
    broken = e;
  };
  client.on("error", onError);
  return {
    client,
    release: () => {
      client.off("error", onError);
      client.release(broken ?? false);
    },
  };
}

/** A Postgres error as node-postgres reports it (fields of the server's ErrorResponse). */
export interface PgError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  constraint?: string;
}

export function isPgError(e: unknown): e is PgError {
  return e instanceof Error && typeof (e as { code?: unknown }).code === "string" && "severity" in e;
}

const CONNECTION_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether `e` says the database could not be reached or the connection broke (rather than a statement failing):
 * a socket error, node-postgres' connection messages, or a connection-class SQLSTATE (08, 57P01-57P03, 53300).
 */
export function isConnectionError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (isPgError(e)) return code === "53300" || /^(08|57P0[123])/.test(e.code);
  if (typeof code === "string" && CONNECTION_ERRNOS.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|connection timeout|Client has encountered a connection error|ECONNREFUSED|ECONNRESET/i.test(
    e.message,
  );
}
