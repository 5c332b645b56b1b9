import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { realtimeOptions, serverAuthOptions } from "@/lib/supabase/options";
import { aggregateExtractedData } from "@/lib/backend/extractions/aggregate";
import { resetConfigForTests } from "@/lib/config";
import { supabaseEnv } from "@/lib/supabase/env";

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  resetConfigForTests();
});

async function caught(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("aggregate failure modes the live stack cannot show", () => {
  it("503 DATABASE_UNAVAILABLE when the database client is not configured", async () => {
    delete process.env.SUPABASE_URL;
    delete process.env.SUPABASE_ANON_KEY;
    resetConfigForTests();
    const err = await caught(() => supabaseEnv());
    expect([err.status, err.code]).toEqual([503, "DATABASE_UNAVAILABLE"]);
  });

  it("503 DATABASE_UNAVAILABLE when the database cannot be reached (real client, closed port)", async () => {
    const db = createClient("http://127.0.0.1:9", "anon-key", { auth: serverAuthOptions, realtime: realtimeOptions });
    const err = await caught(aggregateExtractedData(db, { filters: {}, top_n: 20 }));
    expect([err.status, err.code]).toEqual([503, "DATABASE_UNAVAILABLE"]);
  });

  it("500 AGGREGATE_FAILED when the call returns something other than the aggregate object", async () => {
    // A client whose rpc answers with a wrong shape: the guard must not pass it through.
    for (const data of [null, [], { total: "12" }, { total: 1, sample_n: 1, seed: null }]) {
      const db = { rpc: async () => ({ data, error: null }) } as unknown as SupabaseClient;
      const err = await caught(aggregateExtractedData(db, { filters: {}, top_n: 20 }));
      expect([err.status, err.code]).toEqual([500, "AGGREGATE_FAILED"]);
    }
  });
});
