/**
 * Apply the migrations to the database named by DATABASE_URL, as a deploy does (docs/deploy.md):
 *
 *   DATABASE_URL=postgres://… npm run db:migrate
 *
 * The same files, order and ledger (`supabase_migrations.schema_migrations`) as `supabase db push`, so either may be
 * used on one database; what is recorded is skipped. Exit 1 on the first failure (each migration is its own
 * transaction: the failed one leaves nothing behind).
 */
import { migrate } from "../migrate";

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write("db:migrate: DATABASE_URL is not set\n");
  process.exit(2);
}
migrate(url, (l) => process.stdout.write(`${l}\n`))
  .then(({ applied, skipped }) => {
    process.stdout.write(`applied ${applied.length} migration(s), ${skipped} already applied\n`);
  })
  .catch((e: unknown) => {
    process.stderr.write(`db:migrate: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
