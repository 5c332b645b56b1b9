import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../helpers/fake-openai";
import { Browser, TEST_PASSWORD, uniqueEmail } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { startTestApp, type TestApp } from "../helpers/test-app";
import { testStackSettings } from "../helpers/test-stack";

/**
 * POST /api/extractions/base-schema/nl-filter and GET /api/llm/status, end to end. The suite's app runs without an
 * LLM: the rules translator answers (mode "rules"; it replaced the former 503); a second app instance is pointed at a local OpenAI-compatible fake (tests/helpers/
 * fake-openai.ts) for the translation paths, so everything but the model itself is real: Next, the route wrapper,
 * the @ai-sdk/openai client and its HTTP, validation, and the analytics row written after the response.
 */
const PATH = "/api/extractions/base-schema/nl-filter";
const pool = adminPool();

interface Row {
  question: string;
  question_length: number;
  success: boolean;
  error_code: string | null;
  latency_ms: number;
  model: string | null;
}

/** The analytics row is written after the response: wait (bounded) for the user's `n`-th row. */
async function rowsOf(userId: string, n: number): Promise<Row[]> {
  const read = async () =>
    (
      await pool.query<Row>(
        "select question, question_length, success, error_code, latency_ms, model from public.nl_filter_requests where user_id = $1 order by created_at, id",
        [userId],
      )
    ).rows;
  for (let i = 0; i < 100; i++) {
    const rows = await read();
    if (rows.length >= n) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

/** A strict-mode answer: every offered key present, null unless set. */
function answer(filters: Record<string, unknown>, textQuery: string | null, allKeys: string[]): string {
  return JSON.stringify({ filters: { ...Object.fromEntries(allKeys.map((k) => [k, null])), ...filters }, text_query: textQuery });
}

afterAll(async () => {
  await pool.end();
});

/** A new user, signed up (and so signed in: no e-mail confirmation locally) through the app at `baseUrl`. */
async function signedUp(baseUrl?: string): Promise<{ browser: Browser; user: { id: string; email: string } }> {
  const browser = new Browser(baseUrl);
  const res = await browser.post("/api/auth/sign-up", { email: uniqueEmail("nlfilter"), password: TEST_PASSWORD });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string; email: string } };
  return { browser, user };
}

describe("without an LLM configured (the suite's app)", () => {
  it("answers 401 without a session", async () => {
    const res = await new Browser().post(PATH, { query: "murder appeals since 2015" });
    expect(res.status).toBe(401);
    expect((await res.json()).detail.code).toBe("UNAUTHORIZED");
  });

  // Contract change (was 503 LLM_NOT_CONFIGURED): without a model the rules translator answers.
  it("answers with the rules translator (mode rules) to a signed-in user, logs the request, and reports the status", async () => {
    const { browser, user } = await signedUp();
    const status = await browser.get("/api/llm/status");
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ configured: false, model: null });

    const res = await browser.post(PATH, { query: "murder appeals since 2015" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ filters: { decision_date: { from: "2015-01-01" } }, text_query: "murder", mode: "rules" });

    const [row] = await rowsOf(user.id, 1);
    expect(row).toMatchObject({ question: "murder appeals since 2015", question_length: 25, success: true, error_code: null, model: null });
  });

  it("rules mode reads countries, dates and registry vocabulary in both languages; the result is accepted by the filter route", async () => {
    const { browser } = await signedUp();
    const cases: [string, Record<string, unknown>, string | null][] = [
      ["robbery appeals in England after 2015 by women", { jurisdiction: ["UK"], decision_date: { from: "2016-01-01" }, offender_gender: ["gender_female"] }, "robbery"],
      ["kobiety, które przyznały się do winy, w Polsce między 2010 a 2012", { offender_gender: ["gender_female"], did_offender_confess: true, jurisdiction: ["PL"], decision_date: { from: "2010-01-01", to: "2012-12-31" } }, null],
      ["civil cases in the Crown Court", {}, "civil Crown Court"],
    ];
    for (const [query, filters, textQuery] of cases) {
      const res = await browser.post(PATH, { query });
      expect(res.status, query).toBe(200);
      const body = await res.json();
      expect(body, query).toEqual({ filters, text_query: textQuery, mode: "rules" });
      const filtered = await browser.post("/api/extractions/base-schema/filter", { filters: body.filters, limit: 5 });
      expect(filtered.status, query).toBe(200);
    }
  });

  it("validates the body before anything else: 1 to 1000 characters, no other keys", async () => {
    const { browser } = await signedUp();
    for (const body of [{}, { query: "" }, { query: "   " }, { query: "x".repeat(1001) }, { query: 5 }, { query: "ok", extra: 1 }]) {
      const res = await browser.post(PATH, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422);
      expect((await res.json()).detail.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("with an OpenAI-compatible server (a second app instance)", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let keys: string[];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // Same mode as the suite's app: tests/run-all.ts (TEST_STACK_ENV set) always starts a production build.
    const production = process.env.TEST_APP_MODE === "production" || Boolean(process.env.TEST_STACK_ENV);
    // next dev keeps per-process state in its dist folder, so a second dev server needs its own; next start shares the build.
    const distDir = `${process.env.NEXT_DIST_DIR ?? ".next-test"}${production ? "" : "-llm"}`;
    app = await startTestApp(stackEnv(), {
      port: testStackSettings().appPort + 1,
      mode: production ? "production" : "development",
      extraEnv: { OPENAI_API_KEY: "sk-test-not-a-secret", OPENAI_BASE_URL: fake.baseUrl, LLM_MODEL: "fake-model", NEXT_DIST_DIR: distDir },
    });
    const { nlFields } = await import("@/lib/llm/nl-filter-schema");
    keys = nlFields().map((f) => f.key);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  /** A new user signed in on the second instance (same Supabase stack as the suite's app). */
  const signedIn = () => signedUp(app.url);

  it("reports the configured model on /api/llm/status, never the key", async () => {
    const { browser } = await signedIn();
    const res = await browser.get("/api/llm/status");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ configured: true, model: "fake-model" });
    expect(text).not.toContain("sk-test");
  });

  it("tells an anonymous caller only whether an LLM is configured, not which model (security review L13)", async () => {
    const res = await new Browser(app.url).get("/api/llm/status");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ configured: true });
    expect(text).not.toContain("fake-model");
  });

  it("translates a question; the rules of the spec hold over the model's answer; the request is logged", async () => {
    const question = "Robbery appeals in England after 2015 where the offender was a woman";
    fake.answer(
      question,
      answer(
        { jurisdiction: ["PL"], decision_date: { from: "2015-01-01", to: null }, offender_gender: ["gender_female"], case_type: ["Civil"], court_level: ["Crown Court"] },
        "robbery",
        keys,
      ),
    );
    const { browser, user } = await signedIn();
    const res = await browser.post(PATH, { query: `  ${question} ` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      filters: { jurisdiction: ["UK"], decision_date: { from: "2016-01-01" }, offender_gender: ["gender_female"] },
      text_query: "robbery",
      mode: "llm",
    });

    const sent = fake.requests.at(-1);
    expect(sent?.model).toBe("fake-model");
    expect(sent?.temperature).toBe(0);
    expect(sent?.response_format?.type).toBe("json_schema");
    const schema = JSON.stringify(sent?.response_format?.json_schema?.schema);
    expect(schema).toContain('"gender_female"');
    expect(schema).not.toContain("case_type");
    expect(sent?.messages[0]).toMatchObject({ role: "system" });
    expect(JSON.stringify(sent?.messages[0])).toContain("between Y1 and Y2 / między Y1 a Y2");

    const [row] = await rowsOf(user.id, 1);
    expect(row).toMatchObject({ question, question_length: question.length, success: true, error_code: null, model: "fake-model" });
    expect(row.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("the translated filter is accepted as is by the structured filter route", async () => {
    const question = "wyroki w Polsce między 2010 a 2012";
    fake.answer(question, answer({ decision_date: { from: "2010-01-01", to: "2012-12-31" } }, null, keys));
    const { browser } = await signedIn();
    const res = await browser.post(PATH, { query: question });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ filters: { jurisdiction: ["PL"], decision_date: { from: "2010-01-01", to: "2012-12-31" } }, text_query: null, mode: "llm" });
    const filtered = await browser.post("/api/extractions/base-schema/filter", { filters: body.filters, limit: 5 });
    expect(filtered.status).toBe(200);
  });

  it("a value outside the allowed enumerations → 422 NL_FILTER_INVALID, logged", async () => {
    const question = "appeals by male offenders";
    fake.answer(question, answer({ offender_gender: ["male"] }, null, keys));
    const { browser, user } = await signedIn();
    const res = await browser.post(PATH, { query: question });
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatchObject({ code: "NL_FILTER_INVALID", field: "offender_gender" });
    const [row] = await rowsOf(user.id, 1);
    expect(row).toMatchObject({ success: false, error_code: "NL_FILTER_INVALID", model: "fake-model" });
  });

  it("an upstream error or a non-JSON answer → 502 NL_FILTER_FAILED, without internals", async () => {
    const { browser, user } = await signedIn();
    fake.answer("upstream breaks", { status: 500, body: { error: { message: "boom at 10.0.0.7", type: "server_error" } } });
    const down = await browser.post(PATH, { query: "upstream breaks" });
    expect(down.status).toBe(502);
    const text = await down.text();
    expect(JSON.parse(text).detail.code).toBe("NL_FILTER_FAILED");
    expect(text).not.toContain("10.0.0.7");

    fake.answer("chatty model", "Sure! Here are murder cases from 2019.");
    const chatty = await browser.post(PATH, { query: "chatty model" });
    expect(chatty.status).toBe(502);
    expect((await chatty.json()).detail.code).toBe("NL_FILTER_FAILED");

    const rows = await rowsOf(user.id, 2);
    expect(rows.map((r) => r.error_code)).toEqual(["NL_FILTER_FAILED", "NL_FILTER_FAILED"]);
  });
});
