import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { repoRoot } from "./paths";

export const migrationsDir = path.join(repoRoot, "supabase", "migrations");

export interface MigrationResult {
  applied: string[];
  skipped: number;
}

/** Migration files in file-name order (timestamped names make that the creation order). */
export function listMigrations(dir = migrationsDir): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

/**
 * Apply every migration not yet recorded in supabase_migrations.schema_migrations (the table the Supabase CLI uses),
 * each in its own transaction, in file-name order.
 */
export async function migrate(databaseUrl: string, log: (line: string) => void = () => undefined): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // One migrator at a time (tests and a dev server may start together).
    await client.query("select pg_advisory_lock(724311)");
    await client.query("create schema if not exists supabase_migrations");
    await client.query(
      "create table if not exists supabase_migrations.schema_migrations (version text primary key, name text, statements text[], applied_at timestamptz default now())",
    );
    const { rows } = await client.query<{ version: string }>("select version from supabase_migrations.schema_migrations");
    const done = new Set(rows.map((r) => r.version));
    const applied: string[] = [];
    let skipped = 0;
    for (const file of listMigrations()) {
      const version = file.split("_")[0];
      if (done.has(version)) {
        skipped++;
        continue;
      }
      const sql = readFileSync(path.join(migrationsDir, file), "utf8");
      log(`applying migration ${file}`);
      try {
        await client.query("begin");
        await client.query(sql);
        await client.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
          version,
          file.slice(version.length + 1).replace(/\.sql$/, ""),
        ]);
        await client.query("commit");
      } catch (e) {
        await client.query("rollback");
        throw new Error(`migration ${file} failed: ${(e as Error).message}`);
      }
      applied.push(file);
    }
    return { applied, skipped };
  } finally {
    await client.query("select pg_advisory_unlock(724311)").catch(() => undefined);
    await client.end();
  }
}
