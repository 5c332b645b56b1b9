/**
 * A throwaway confirmed user for benches that run against a running app (`npm start`): created through the admin
 * API with the service-role key (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY from the environment or `.env.local`),
 * deleted when the bench ends.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { parse as parseDotenv } from "dotenv";
import { createClient } from "@supabase/supabase-js";
import { realtimeOptions, serverAuthOptions } from "../../lib/supabase/options";
import { repoRoot } from "../../server/paths";

export interface ThrowawayUser {
  id: string;
  email: string;
  password: string;
}

function stackCredentials(): { supabaseUrl: string; serviceKey: string } {
  const file = path.join(repoRoot, ".env.local");
  const fromFile = fs.existsSync(file) ? parseDotenv(fs.readFileSync(file)) : {};
  const supabaseUrl = process.env.SUPABASE_URL ?? fromFile.SUPABASE_URL;
  const serviceKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? fromFile.SUPABASE_SERVICE_ROLE_KEY;
  if (!supabaseUrl || !serviceKey) throw new Error("SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are needed (environment or .env.local)");
  return { supabaseUrl, serviceKey };
}

function adminClient() {
  const { supabaseUrl, serviceKey } = stackCredentials();
  return createClient(supabaseUrl, serviceKey, { auth: serverAuthOptions, realtime: realtimeOptions });
}

/** `prefix` names the bench in the address, so a user left behind by a crash says where it came from. */
export async function createThrowawayUser(prefix: string): Promise<ThrowawayUser> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
  const password = `bench-${randomUUID()}`;
  const { data, error } = await adminClient().auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`creating the bench user failed: ${error?.message}`);
  return { id: data.user.id, email, password };
}

export async function deleteUser(id: string): Promise<void> {
  const { error } = await adminClient().auth.admin.deleteUser(id);
  if (error) console.error(`warning: could not delete the bench user ${id}: ${error.message}`);
}
