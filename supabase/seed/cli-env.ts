/** DATABASE_URL for the seed and ingest CLIs: the environment first, then `.env.local` (written by the launcher). */
import path from "node:path";
import { readEnvFile } from "../../server/env-file";
import { repoRoot } from "../../server/paths";

export function databaseUrlFromEnv(): string {
  const url = process.env.DATABASE_URL ?? readEnvFile(path.join(repoRoot, ".env.local")).DATABASE_URL;
  if (!url) {
    throw new Error("DATABASE_URL is not set (export it, or start the stack once with `npm run stack` to write .env.local)");
  }
  return url;
}
