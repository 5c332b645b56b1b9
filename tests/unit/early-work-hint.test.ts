import { beforeAll, describe, expect, it } from "vitest";

// A limiter in process memory (no store configured) with a small search limit.
process.env.SEARCH_DOCUMENTS_RATE_LIMIT = "3";
delete process.env.UPSTASH_REDIS_REST_URL;
delete process.env.LIMITS_REDIS_URL;

let rl: typeof import("@/lib/api/rate-limit");
beforeAll(async () => {
  rl = await import("@/lib/api/rate-limit");
});

describe("earlyWorkWelcome (work before the limiter verdict, issue 20 item 3)", () => {
  it("welcomes unknown callers and those with allowance left, not those this process saw refused or spent", async () => {
    const address = "203.0.113.7";
    expect(rl.earlyWorkWelcome("search", address, "user-a")).toBe(true);
    await rl.limitByAddressAndUser("search", address, "user-a"); // 2 left
    await rl.limitByAddressAndUser("search", address, "user-a"); // 1 left
    expect(rl.earlyWorkWelcome("search", address, "user-a")).toBe(true);
    await rl.limitByAddressAndUser("search", address, "user-a"); // 0 left
    expect(rl.earlyWorkWelcome("search", address, "user-a")).toBe(false);
    await expect(rl.limitByAddressAndUser("search", address, "user-a")).rejects.toMatchObject({ status: 429 });
    expect(rl.earlyWorkWelcome("search", address, "user-a")).toBe(false);
    // The same user from a fresh address: the user's own counter is spent, so still no early work.
    expect(rl.earlyWorkWelcome("search", "203.0.113.8", "user-a")).toBe(false);
    // Another user from a fresh address, and the general rule (separate counters): welcome.
    expect(rl.earlyWorkWelcome("search", "203.0.113.8", "user-b")).toBe(true);
    expect(rl.earlyWorkWelcome("general", address, "user-a")).toBe(true);
  });
});
