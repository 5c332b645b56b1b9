import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "./database.types";

/**
 * The Supabase client of this app: `.rpc(name, args)` checks the function name and arguments and types the result
 * from the generated `Database` (lib/supabase/database.types.ts, `npm run db:types`).
 */
export type DbClient = SupabaseClient<Database>;
