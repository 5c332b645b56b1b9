import { randomBytes } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey, verifyApiKey } from "@/lib/backend/api-keys";
import { serviceClient } from "../helpers/supabase";

/** The real service client against the gateway, with its RPC calls counted. */
function counted(db: SupabaseClient) {
  const calls = { n: 0 };
  const rpc = db.rpc.bind(db);
  const wrapped = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "rpc") return (...args: Parameters<typeof rpc>) => (calls.n++, rpc(...args));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: wrapped, calls };
}

const unknownKey = () => `jsk_${randomBytes(6).toString("hex")}_${randomBytes(32).toString("base64url")}`;

describe("API key cache (security review L12)", () => {
  let key: { id: string; key: string };
  beforeAll(async () => {
    key = await createApiKey(serviceClient(), { name: `cache test ${Date.now()}` });
  });
  afterAll(async () => {
    await revokeApiKey(serviceClient(), key.id).catch(() => undefined);
  });

  it("a flood of unknown well-formed keys does not evict a valid key", async () => {
    const { db, calls } = counted(serviceClient());
    expect(await verifyApiKey(db, key.key)).toMatchObject({ id: key.id });
    const before = calls.n;
    // More unknown keys than the cache holds (1,000): before the fix the whole cache was cleared at 1,000 entries.
    for (let i = 0; i < 1_050; i++) expect(await verifyApiKey(db, unknownKey())).toBeNull();
    expect(calls.n - before).toBe(1_050);
    const afterFlood = calls.n;
    expect(await verifyApiKey(db, key.key)).toMatchObject({ id: key.id });
    expect(calls.n).toBe(afterFlood); // answered from the cache
  });
});
