/**
 * `npm run user:create -- --email E --password P [--admin]`
 *
 * Creates a confirmed user through the Auth admin API (the local gateway, or a real Supabase project when
 * SUPABASE_URL points at one) and prints its id. `--admin` sets app_metadata.role = "admin", which only the service
 * role can write and which access tokens carry in their app_metadata claim.
 * Settings come from the environment, then `.env.local` (written by the launcher): SUPABASE_URL and
 * SUPABASE_SERVICE_ROLE_KEY.
 */
import { parseArgs } from "node:util";
import { localEnvFile, readEnvFile } from "../env-file";

const USAGE = "usage: npm run user:create -- --email <email> --password <password> [--admin]";

function fail(message: string, code = 1): never {
  console.error(`user:create: ${message}`);
  process.exit(code);
}

function readOptions() {
  try {
    const { values } = parseArgs({
      options: { email: { type: "string" }, password: { type: "string" }, admin: { type: "boolean", default: false } },
      strict: true,
    });
    if (!values.email || !values.password) fail(USAGE, 2);
    return { email: values.email, password: values.password, admin: values.admin ?? false };
  } catch (e) {
    return fail(`${(e as Error).message}\n${USAGE}`, 2);
  }
}

/** GoTrue answers errors as {code, message} (API version 2024-01-01) or {msg, error_code}; Kong as {message}. */
function describeError(status: number, body: unknown): string {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const code = typeof b.code === "string" ? b.code : typeof b.error_code === "string" ? b.error_code : undefined;
  const message = [b.message, b.msg, b.error_description].find((m) => typeof m === "string") as string | undefined;
  if (code === "email_exists" || code === "user_already_exists") return "a user with this e-mail address already exists";
  if (status === 401) return `the service role key was refused (${message ?? "Invalid API key"}); is SUPABASE_SERVICE_ROLE_KEY from this stack?`;
  if (status === 403) return "the key is not the service role key (admin API refused it)";
  return `${message ?? "request failed"} (HTTP ${status}${code ? `, ${code}` : ""})`;
}

async function main() {
  const opts = readOptions();
  const env = { ...readEnvFile(localEnvFile()), ...process.env };
  const url = env.SUPABASE_URL?.replace(/\/$/, "");
  const serviceKey = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!url || !serviceKey) {
    fail("SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are not set (start the stack once with `npm run stack` to write .env.local)");
  }
  let res: Response;
  try {
    res = await fetch(`${url}/auth/v1/admin/users`, {
      method: "POST",
      headers: {
        apikey: serviceKey,
        authorization: `Bearer ${serviceKey}`,
        "content-type": "application/json",
        "X-Supabase-Api-Version": "2024-01-01",
      },
      body: JSON.stringify({
        email: opts.email,
        password: opts.password,
        email_confirm: true,
        ...(opts.admin ? { app_metadata: { role: "admin" } } : {}),
      }),
    });
  } catch (e) {
    const err = e as { message: string; cause?: { code?: string; errors?: Array<{ code?: string }> } };
    const cause = err.cause?.code ?? err.cause?.errors?.[0]?.code ?? (err.cause as Error | undefined)?.message ?? err.message;
    return fail(`nothing answers at ${url} (${cause}); start the stack with \`npm run stack\` or \`npm run dev\``);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) return fail(describeError(res.status, body));
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== "string") return fail("the admin API answered without a user id");
  console.log(id);
}

main().catch((e: unknown) => fail((e as Error).message));
