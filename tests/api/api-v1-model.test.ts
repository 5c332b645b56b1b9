/**
 * POST /api/v1/schemas/generate with a language model: an app of its own pointed at a fake
 * OpenAI-compatible server (tests/helpers/fake-openai.ts; the only mocked part is the model), acting as the key's user
 * over the real test database. The answer carries the reference `{schema}` (a JSON Schema ajv compiles) drafted by the
 * web generator from the model's fields; the model sees the description and the example judgment's opening; a
 * malformed model answer is 502 and an unknown example is 404; nothing is stored.
 */
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExtraApp } from "../helpers/extra-app";
import { startFakeOpenAI, type ChatRequest, type FakeOpenAI } from "../helpers/fake-openai";
import { Browser, createUser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import type { TestApp } from "../helpers/test-app";

const pool = adminPool();
let fake: FakeOpenAI;
let app: TestApp;
let key: Record<string, string>;
let api: Browser;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  app = await startExtraApp(stackEnv(), { OPENAI_API_KEY: "sk-test-not-a-secret", OPENAI_BASE_URL: fake.baseUrl, LLM_MODEL: "fake-model" });
  const u = await createUser();
  const user = new Browser(app.url);
  expect((await user.post("/api/auth/sign-in", { email: u.email, password: u.password })).status).toBe(200);
  const made = await user.post("/api/settings/api-keys", { name: "model test" });
  expect(made.status).toBe(201);
  key = { "x-api-key": ((await made.json()) as { key: string }).key };
  api = new Browser(app.url);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await fake?.close();
  await pool.end();
});

const DRAFT = {
  name: "Sentences",
  description: "Custodial terms and outcomes of criminal appeals",
  fields: [
    { name: "sentence_years", type: "number", description: "custodial term in years", enum_values: null, required: false },
    { name: "outcome", type: "enum", description: "what the appeal court did", enum_values: ["dismissed", "allowed", "varied"], required: true },
  ],
};

function userText(req: ChatRequest | undefined): string {
  return (req?.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? "").join("") : ""))
    .join("\n");
}

const schemaCount = async () => Number((await pool.query("select count(*) from public.extraction_schemas")).rows[0].count);

describe("POST /api/v1/schemas/generate with a model", () => {
  it("answers {schema} (a JSON Schema) drafted from the model's fields, showing the model the example's opening; nothing stored", async () => {
    const example = (await pool.query<{ id: string; full_text: string }>("select id::text, full_text from public.judgments where length(full_text) > 200 order by id limit 1")).rows[0];
    fake.answer("*", JSON.stringify(DRAFT));
    const before = { calls: fake.requests.length, stored: await schemaCount() };
    const res = await api.post("/api/v1/schemas/generate", { description: "custodial terms and the outcome of each appeal", example_document_id: example.id }, key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
    const body = (await res.json()) as { schema: Record<string, unknown>; name: string; fields: { name: string }[]; mode: string };
    expect(body).toMatchObject({ name: "Sentences", mode: "model" });
    expect(body.fields.map((f) => f.name)).toEqual(["sentence_years", "outcome"]);
    expect(body.schema).toMatchObject({ type: "object", title: "Sentences", required: ["outcome"], properties: { outcome: { type: "string", enum: ["dismissed", "allowed", "varied"] } } });
    // A JSON Schema a validator accepts, and which judges values as the draft says.
    const validate = new Ajv({ strict: true }).compile(body.schema);
    expect(validate({ sentence_years: 4.5, outcome: "varied" })).toBe(true);
    expect(validate({ sentence_years: null, outcome: "quashed" })).toBe(false);

    expect(fake.requests.length).toBe(before.calls + 1);
    const sent = userText(fake.requests.at(-1));
    expect(sent).toContain("custodial terms and the outcome of each appeal");
    expect(sent).toContain(example.full_text.slice(0, 80));
    expect(await schemaCount()).toBe(before.stored);
  });

  it("refuses a model answer that is not a valid schema (502 SCHEMA_GENERATION_FAILED) and an unknown example (404, no model call)", async () => {
    fake.answer("*", JSON.stringify({ ...DRAFT, fields: [{ ...DRAFT.fields[0], name: "Sentence Years" }] }));
    const bad = await api.post("/api/v1/schemas/generate", { description: "custodial terms in years" }, key);
    expect(bad.status).toBe(502);
    expect(await bad.json()).toMatchObject({ error: "BadGateway", status_code: 502, details: { code: "SCHEMA_GENERATION_FAILED" } });

    const calls = fake.requests.length;
    const missing = await api.post("/api/v1/schemas/generate", { description: "custodial terms in years", example_document_id: "00000000-0000-4000-8000-000000000000" }, key);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status_code: 404, details: { code: "DOCUMENT_NOT_FOUND" } });
    expect(fake.requests.length).toBe(calls);
  });
});
