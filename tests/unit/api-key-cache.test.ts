import type { SupabaseClient } from "@supabase/supabase-js";
import { afterEach, describe, expect, it } from "vitest";
import { generateApiKey, revokeApiKey, verifyApiKey } from "@/lib/backend/api-keys";
import { resetConfigForTests } from "@/lib/config";

/** A service client that answers api_key_lookup from a fixed row list and counts the calls. */
function fakeDb(rows: { id: string; name: string; key_hash: string; user_id: string | null }[]) {
  const calls: string[] = [];
  const db = {
    rpc: async (name: string, args: { p_prefix?: string }) => {
      calls.push(name);
      if (name === "api_key_lookup") return { data: rows.filter((r) => r.id.startsWith(args.p_prefix ?? "")), error: null };
      if (name === "api_key_revoke") return { data: true, error: null };
      throw new Error(`unexpected rpc ${name}`);
    },
  } as unknown as SupabaseClient;
  return { db, lookups: () => calls.filter((c) => c === "api_key_lookup").length };
}

const saved = process.env.API_KEY_CACHE_SECONDS;
afterEach(() => {
  if (saved === undefined) delete process.env.API_KEY_CACHE_SECONDS;
  else process.env.API_KEY_CACHE_SECONDS = saved;
  resetConfigForTests();
});

describe("API key cache (lru-cache with ttl)", () => {
  it("remembers known and unknown keys apart; revoking clears both", async () => {
    process.env.API_KEY_CACHE_SECONDS = "30";
    resetConfigForTests();
    const good = generateApiKey();
    const stranger = generateApiKey();
    // The row id starts with the key's prefix so the fake lookup finds it (the real one matches on key_prefix).
    const { db, lookups } = fakeDb([{ id: `${good.prefix}-row`, name: "server", key_hash: good.hash, user_id: null }]);
    expect(await verifyApiKey(db, good.key)).toEqual({ id: `${good.prefix}-row`, name: "server", userId: null });
    expect(await verifyApiKey(db, good.key)).toMatchObject({ name: "server" });
    expect(await verifyApiKey(db, stranger.key)).toBeNull();
    expect(await verifyApiKey(db, stranger.key)).toBeNull();
    expect(lookups()).toBe(2); // one per distinct key: the repeats were answered from the caches
    expect(await revokeApiKey(db, "any")).toBe(true);
    expect(await verifyApiKey(db, good.key)).toMatchObject({ name: "server" });
    expect(await verifyApiKey(db, stranger.key)).toBeNull();
    expect(lookups()).toBe(4);
  });

  it("an entry expires after API_KEY_CACHE_SECONDS; 0 turns the cache off", async () => {
    process.env.API_KEY_CACHE_SECONDS = "1";
    resetConfigForTests();
    const good = generateApiKey();
    const { db, lookups } = fakeDb([{ id: `${good.prefix}-row`, name: "server", key_hash: good.hash, user_id: null }]);
    await verifyApiKey(db, good.key);
    await verifyApiKey(db, good.key);
    expect(lookups()).toBe(1);
    await new Promise((r) => setTimeout(r, 1_300));
    await verifyApiKey(db, good.key);
    expect(lookups()).toBe(2);

    process.env.API_KEY_CACHE_SECONDS = "0";
    resetConfigForTests();
    const other = generateApiKey();
    const off = fakeDb([{ id: `${other.prefix}-row`, name: "other", key_hash: other.hash, user_id: null }]);
    await verifyApiKey(off.db, other.key);
    await verifyApiKey(off.db, other.key);
    expect(off.lookups()).toBe(2);
  });
});
