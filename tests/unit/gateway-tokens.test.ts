import { afterEach, describe, expect, it, vi } from "vitest";
import { generateLocalKeys } from "@/supabase/local/keys";
import { TokenService } from "@/supabase/local/gateway/tokens";

/**
 * The gateway remembers tokens whose signature verified (supabase/local/gateway/tokens.ts): a remembered token must
 * still expire, must not become valid before its nbf, and must never vouch for other bytes.
 */
async function service() {
  const keys = await generateLocalKeys("http://127.0.0.1:1");
  return { tokens: await TokenService.create(keys.privateJwk), keys };
}

const now = () => Math.floor(Date.now() / 1000);

afterEach(() => {
  vi.useRealTimers();
});

describe("TokenService.verify with remembered signatures", () => {
  it("answers a remembered token with the same claims, frozen so no caller can change them for the next", async () => {
    const { tokens, keys } = await service();
    const first = await tokens.verify(keys.anonKey);
    const second = await tokens.verify(keys.anonKey);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.claims).toEqual(first.claims);
    expect(second.claims.role).toBe("anon");
    expect(Object.isFrozen(second.claims)).toBe(true);
  });

  it("a remembered token expires at its exp, as jose judges it (exp <= now is expired)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-07T12:00:00Z"));
    const { tokens } = await service();
    const exp = now() + 60;
    const token = await tokens.sign({ role: "authenticated", sub: "u", iat: now(), exp });
    expect((await tokens.verify(token)).ok).toBe(true);
    vi.setSystemTime((exp - 1) * 1000);
    expect((await tokens.verify(token)).ok).toBe(true);
    vi.setSystemTime(exp * 1000);
    expect(await tokens.verify(token)).toEqual({ ok: false, failure: { kind: "expired", message: "JWT expired" } });
    // And stays expired (it was forgotten, and jose refuses it afresh).
    expect(await tokens.verify(token)).toEqual({ ok: false, failure: { kind: "expired", message: "JWT expired" } });
  });

  it("a token not yet valid is refused until its nbf, then accepted and remembered; remembered, it is judged by time again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-07T12:00:00Z"));
    const { tokens } = await service();
    const nbf = now() + 30;
    const token = await tokens.sign({ role: "authenticated", sub: "u", iat: now(), nbf, exp: nbf + 60 });
    const early = await tokens.verify(token);
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.failure.kind).toBe("claims");
    vi.setSystemTime(nbf * 1000);
    expect((await tokens.verify(token)).ok).toBe(true);
    // Remembered now; a clock set back (the same check jose makes) refuses it again with jose's message.
    vi.setSystemTime((nbf - 1) * 1000);
    expect(await tokens.verify(token)).toEqual({ ok: false, failure: { kind: "claims", message: '"nbf" claim timestamp check failed' } });
  });

  it("a remembered token vouches for nothing else: the same claims with another signature, or another key's token, are refused", async () => {
    const { tokens, keys } = await service();
    expect((await tokens.verify(keys.anonKey)).ok).toBe(true);
    const [h, p, s] = keys.anonKey.split(".");
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`;
    const forged = await tokens.verify(flipped);
    expect(forged.ok).toBe(false);
    const other = await service();
    expect((await tokens.verify(other.keys.anonKey)).ok).toBe(false);
  });

  it("remembers at most VERIFIED_CACHE_SIZE tokens (the oldest go first) and still verifies the ones it forgot", async () => {
    const { tokens } = await service();
    const size = TokenService.VERIFIED_CACHE_SIZE;
    const made: string[] = [];
    for (let i = 0; i < size + 5; i++) made.push(await tokens.sign({ role: "authenticated", sub: `u${i}`, iat: now(), exp: now() + 600 }));
    for (const t of made) expect((await tokens.verify(t)).ok).toBe(true);
    const remembered = (tokens as unknown as { verified: Map<string, unknown> }).verified;
    expect(remembered.size).toBe(size);
    expect(remembered.has(made[0])).toBe(false);
    expect(remembered.has(made[made.length - 1])).toBe(true);
    expect((await tokens.verify(made[0])).ok).toBe(true);
  });
});
