/**
 * Print a fresh set of keys for the local Auth/RPC gateway as env-file lines (docs/deploy.md, the compose topology):
 *
 *   npx tsx server/cli/keys.ts http://gateway:54321 >> deploy/.env
 *
 * The argument is the gateway's URL as the app reaches it (the tokens' issuer). `npm start` makes the same keys into
 * .env.local by itself.
 */
import { generateLocalKeys } from "../../supabase/local/keys";

const url = process.argv[2] ?? "http://127.0.0.1:54321";
generateLocalKeys(url)
  .then((k) => {
    process.stdout.write(
      [
        `SUPABASE_URL=${url}`,
        `SUPABASE_JWT_PRIVATE_JWK=${JSON.stringify(k.privateJwk)}`,
        `SUPABASE_ANON_KEY=${k.anonKey}`,
        `SUPABASE_SERVICE_ROLE_KEY=${k.serviceRoleKey}`,
        `UPSTASH_REDIS_REST_TOKEN=${k.upstashToken}`,
        "",
      ].join("\n"),
    );
  })
  .catch((e: unknown) => {
    process.stderr.write(`keys: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
