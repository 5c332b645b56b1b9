/**
 * `npm run citations:rebuild`: recompute the citation graph (public.judgment_references and judgments.cited_by_count)
 * from every judgment's text, in one transaction, so readers see the old graph until the new one is complete.
 * Idempotent: run it again and it writes the same rows and changes no count. `--ids=<uuid,uuid>` limits it to some
 * citing judgments (after an import or ingest). Reads DATABASE_URL from the environment or `.env.local` (written by
 * the launcher; the owner role).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "dotenv";
import pg from "pg";
import { rebuildCitations } from "@/lib/citations/store";
import { isUuid } from "@/lib/schema/uuid";

function loadEnv(): void {
  const file = path.join(process.cwd(), ".env.local");
  if (!existsSync(file)) return;
  for (const [k, v] of Object.entries(parse(readFileSync(file, "utf8")))) {
    if (process.env[k] === undefined) process.env[k] = v;
  }
}

async function main(): Promise<void> {
  loadEnv();
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("citations:rebuild needs DATABASE_URL");
    process.exit(2);
  }
  const idsArg = process.argv.find((a) => a.startsWith("--ids="))?.slice("--ids=".length);
  const ids = idsArg ? idsArg.split(",").filter(Boolean) : undefined;
  if (ids && !ids.every((id) => isUuid(id))) {
    console.error("--ids takes judgment UUIDs separated by commas");
    process.exit(2);
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  const started = Date.now();
  try {
    await client.query("begin");
    const result = await rebuildCitations(client, {
      ids,
      onProgress: (done, total) => {
        if (done % 2000 < 200 || done === total) console.error(`citations: ${done}/${total} judgments`);
      },
    });
    await client.query("commit");
    console.log(JSON.stringify({ ...result, seconds: (Date.now() - started) / 1000 }));
  } catch (e) {
    await client.query("rollback");
    throw e;
  } finally {
    client.release();
    await pool.end();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
