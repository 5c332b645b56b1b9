import type { SupabaseClientOptions } from "@supabase/supabase-js";

type Transport = NonNullable<NonNullable<SupabaseClientOptions<"public">["realtime"]>["transport"]>;

/**
 * supabase-js builds a Realtime client eagerly and Node 20 has no WebSocket. Tests never use Realtime, so instead of
 * a real implementation they get one that fails loudly if a socket is ever opened.
 */
class NoRealtime {
  constructor() {
    throw new Error("no realtime in tests");
  }
}

/** Pass as `realtime` in a test's createClient options. */
export const noRealtime = { transport: NoRealtime as unknown as Transport };
