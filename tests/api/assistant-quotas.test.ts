/**
 * The assistants' hourly quotas over real HTTP (precedents 30/h, argumentation 10/h, chat and qa share
 * chatMessages): the call past the quota is the reference 429 with Retry-After, and another user keeps an allowance
 * of their own. Each counted call is a well-formed request that stops cheaply at a 404 or 422 after the quota has
 * counted it (lib/api/route.ts: quotas count well-formed bodies; the handler runs after).
 *
 * Precedents and argumentation run on the shared app at their real defaults. The chat quota (100/h) equals one
 * user's general limit (100/min), which would refuse the 101st call first, so it runs on an app of its own with a
 * lowered QUOTA_CHAT_MESSAGES_PER_HOUR (as tests/api/api-v1-limit.test.ts does for the per-key limit).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { startExtraApp } from "../helpers/extra-app";
import type { TestApp } from "../helpers/test-app";
import { Browser, createUser, signedInBrowser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";
import { startInOneWindow } from "../helpers/rate-window";

const NO_SUCH = "00000000-0000-4000-8000-000000000000";

async function expectReference429(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  const body = (await res.json()) as { retry_after: number };
  expect(body).toEqual({ error: "RateLimitExceeded", message: expect.any(String), retry_after: expect.any(Number), status_code: 429 });
  expect(body.retry_after).toBe(retryAfter);
}

describe("precedent finder quota (QUOTA_PRECEDENTS_PER_HOUR = 30)", () => {
  it("the 31st call in an hour is the reference 429 with Retry-After; another user is not affected", async () => {
    const limit = config().QUOTA_PRECEDENTS_PER_HOUR;
    await startInOneWindow(3600, 60);
    expect(limit).toBe(30);
    const { browser } = await signedInBrowser();
    // A refused body costs nothing.
    expect((await browser.post("/api/precedents/find", { query: "short" })).status).toBe(422);
    for (let i = 0; i < limit; i++) {
      const res = await browser.post("/api/precedents/find", { query: "kryptowaluta jako mienie", document_id: NO_SUCH });
      expect([i, res.status]).toEqual([i, 404]);
    }
    await expectReference429(await browser.post("/api/precedents/find", { query: "kryptowaluta jako mienie", document_id: NO_SUCH }));
    const { browser: other } = await signedInBrowser();
    expect((await other.post("/api/precedents/find", { query: "kryptowaluta jako mienie", document_id: NO_SUCH })).status).toBe(404);
  }, 120_000);
});

describe("argumentation quota (QUOTA_ARGUMENTATION_PER_HOUR = 10)", () => {
  it("the 11th call in an hour is the reference 429 with Retry-After; another user is not affected", async () => {
    const limit = config().QUOTA_ARGUMENTATION_PER_HOUR;
    await startInOneWindow(3600, 60);
    expect(limit).toBe(10);
    const { browser } = await signedInBrowser();
    expect((await browser.post("/api/argumentation/argumentation/analyze", { document_ids: [] })).status).toBe(422);
    for (let i = 0; i < limit; i++) {
      const res = await browser.post("/api/argumentation/argumentation/analyze", { document_ids: [NO_SUCH] });
      expect([i, res.status]).toEqual([i, 404]);
    }
    await expectReference429(await browser.post("/api/argumentation/argumentation/analyze", { document_ids: [NO_SUCH] }));
    const { browser: other } = await signedInBrowser();
    expect((await other.post("/api/argumentation/argumentation/analyze", { document_ids: [NO_SUCH] })).status).toBe(404);
  }, 120_000);
});

describe("chat quota (chatMessages, shared by /api/chat and /api/qa), on an app with QUOTA_CHAT_MESSAGES_PER_HOUR = 3", () => {
  const LIMIT = 3;
  let app: TestApp;

  beforeAll(async () => {
    app = await startExtraApp(stackEnv(), { QUOTA_CHAT_MESSAGES_PER_HOUR: String(LIMIT) });
  }, 600_000);

  afterAll(async () => {
    await app?.stop();
  });

  async function signIn(): Promise<Browser> {
    const user = await createUser();
    const browser = new Browser(app.url);
    expect((await browser.post("/api/auth/sign-in", { email: user.email, password: user.password })).status).toBe(200);
    return browser;
  }

  it("chat and qa draw on one allowance; the call past it is the reference 429 with Retry-After on both", async () => {
    await startInOneWindow(3600, 30);
    const browser = await signIn();
    // Not counted: a refused body, including a filter key that does not exist (FILTER_INVALID from the request schema).
    expect((await browser.post("/api/chat", { message: "" })).status).toBe(422);
    expect((await browser.post("/api/qa", { question: "robbery", context_filters: { no_such_key: 1 } })).status).toBe(422);
    // Counted: a thread that does not exist (404, from the handler), and a question answered.
    expect((await browser.post("/api/chat", { message: "robbery", thread_id: NO_SUCH, stream: false })).status).toBe(404);
    expect((await browser.post("/api/chat", { message: "robbery", thread_id: NO_SUCH })).status).toBe(404);
    expect((await browser.post("/api/qa", { question: "robbery" })).status).toBe(200);
    await expectReference429(await browser.post("/api/chat", { message: "robbery", thread_id: NO_SUCH }));
    await expectReference429(await browser.post("/api/qa", { question: "robbery" }));

    const other = await signIn();
    expect((await other.post("/api/chat", { message: "robbery", thread_id: NO_SUCH })).status).toBe(404);
  }, 300_000);

  it("/api/v1/chat and /api/v1/qa count against the key's user's chat quota, shared with the web routes and across keys", async () => {
    await startInOneWindow(3600, 60);
    const browser = await signIn();
    const keyOf = async (b: Browser) => {
      const res = await b.post("/api/settings/api-keys", { name: "quota" });
      expect(res.status).toBe(201);
      return ((await res.json()) as { key: string }).key;
    };
    const [key1, key2] = [await keyOf(browser), await keyOf(browser)];
    const v1 = (path: string, body: unknown, key: string) => new Browser(app.url).post(path, body, { "x-api-key": key });
    // Not counted: a refused body.
    expect((await v1("/api/v1/chat", { message: "" }, key1)).status).toBe(422);
    // Counted: one web call, then one call through each key.
    expect((await browser.post("/api/chat", { message: "robbery", thread_id: NO_SUCH })).status).toBe(404);
    expect((await v1("/api/v1/chat", { message: "robbery appeal against sentence", stream: false }, key1)).status).toBe(200);
    expect((await v1("/api/v1/qa", { question: "Why was the sentence reduced?" }, key2)).status).toBe(200);
    // The allowance is spent: every route, through either key, is the reference 429.
    await expectReference429(await v1("/api/v1/chat", { message: "robbery appeal against sentence", stream: false }, key2));
    await expectReference429(await v1("/api/v1/qa", { question: "Why was the sentence reduced?" }, key1));
    await expectReference429(await browser.post("/api/chat", { message: "robbery", thread_id: NO_SUCH }));

    // Another user's key keeps an allowance of its own.
    const otherKey = await keyOf(await signIn());
    expect((await v1("/api/v1/qa", { question: "Why was the sentence reduced?" }, otherKey)).status).toBe(200);
  }, 300_000);
});
