import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { generateSchema } from "@/lib/backend/schemas/generate";
import { compileJsonSchema, toJsonSchema, validationFailure } from "@/lib/backend/schemas/json-schema";
import { diffFields } from "@/lib/backend/schemas/schemas";
import { schemaFieldsSchema, type SchemaField } from "@/lib/schema/requests/schemas";
import { textResult as result } from "../helpers/mock-model";

const fields = (raw: unknown[]): SchemaField[] => schemaFieldsSchema().parse(raw);


async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

describe("the JSON Schema form (ajv)", () => {
  const all = fields([
    { name: "case_number", type: "string", required: true },
    { name: "judges_count", type: "integer" },
    { name: "years", type: "number" },
    { name: "in_custody", type: "boolean" },
    { name: "decided_on", type: "date", required: true },
    { name: "outcome", type: "enum", enum_values: ["dismissed", "allowed"] },
    { name: "judges", type: "string[]" },
    { name: "grounds", type: "enum[]", enum_values: ["sentence", "conviction"] },
  ]);
  const schema = toJsonSchema(all, "All types");

  it("compiles under ajv strict mode for every field type", () => {
    expect(() => compileJsonSchema(schema)).not.toThrow();
  });

  it("accepts good values and nulls on optional fields", () => {
    const ok = { case_number: "II AKa 12/21", decided_on: "2021-03-04", judges_count: 3, years: 2.5, in_custody: true, outcome: "dismissed", judges: ["A"], grounds: ["sentence"] };
    expect(validationFailure(schema, ok)).toBeNull();
    expect(validationFailure(schema, { case_number: "x", decided_on: "2021-03-04", judges_count: null, outcome: null })).toBeNull();
  });

  it.each([
    ["a missing required field", { decided_on: "2021-03-04" }, "case_number"],
    ["a null required field", { case_number: null, decided_on: "2021-03-04" }, "/case_number"],
    ["a float for an integer", { case_number: "x", decided_on: "2021-03-04", judges_count: 2.5 }, "/judges_count"],
    ["a bad date", { case_number: "x", decided_on: "4 March 2021" }, "/decided_on"],
    ["a value outside the enum", { case_number: "x", decided_on: "2021-03-04", outcome: "quashed" }, "/outcome"],
    ["an unknown key", { case_number: "x", decided_on: "2021-03-04", colour: "red" }, "additional"],
  ])("refuses %s with a readable reason", (_l, values, mention) => {
    expect(validationFailure(schema, values)).toContain(mention);
  });

  it("refuses a form that ajv cannot compile with 422 SCHEMA_INVALID", () => {
    const e = (() => {
      try {
        compileJsonSchema({ type: "object", properties: { a: { type: "no-such-type" } } });
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe("SCHEMA_INVALID");
  });
});

describe("diffFields", () => {
  it("names added, removed and changed fields and what changed", () => {
    const a = fields([{ name: "a", type: "string" }, { name: "b", type: "integer" }, { name: "c", type: "enum", enum_values: ["x"] }]);
    const b = fields([{ name: "c", type: "enum", enum_values: ["x", "y"], required: true }, { name: "b", type: "number" }, { name: "d", type: "boolean" }]);
    const d = diffFields(a, b);
    expect(d.added.map((f) => f.name)).toEqual(["d"]);
    expect(d.removed.map((f) => f.name)).toEqual(["a"]);
    expect(d.changed.map((c) => [c.name, c.changes])).toEqual([
      ["b", ["type"]],
      ["c", ["enum_values", "required", "position"]],
    ]);
    expect(diffFields(a, a)).toEqual({ added: [], removed: [], changed: [] });
  });
});

describe("generateSchema with a mock model (model mode)", () => {
  const good = {
    name: "Sentences",
    description: "Custodial terms",
    fields: [
      { name: "sentence_years", type: "number", description: "years", enum_values: null, required: false },
      { name: "outcome", type: "enum", description: "", enum_values: ["dismissed", "allowed"], required: true },
    ],
  };

  it("turns a valid answer into fields and a compiled JSON Schema, showing the model the example's opening", async () => {
    const model = new MockLanguageModelV3({ doGenerate: result(JSON.stringify(good)) });
    const out = await generateSchema({ description: "custodial terms and outcomes", exampleText: "SYGN. AKT II AKa 1/20 " + "x".repeat(10_000) }, { model, timeoutMs: 5000 });
    expect(out.mode).toBe("model");
    expect(out.fields.map((f) => f.name)).toEqual(["sentence_years", "outcome"]);
    expect(out.fields[0].enum_values).toBeUndefined();
    expect(out.schema).toMatchObject({ title: "Sentences", required: ["outcome"] });
    const prompt = JSON.stringify(model.doGenerateCalls[0].prompt);
    expect(prompt).toContain("SYGN. AKT II AKa 1/20");
    expect(prompt.length).toBeLessThan(9000); // the example is cut to its opening
  });

  it("refuses an answer whose fields break the rules (502 SCHEMA_GENERATION_FAILED)", async () => {
    const bad = { ...good, fields: [{ ...good.fields[0], name: "Sentence Years" }] };
    const e = await failure(generateSchema({ description: "custodial terms" }, { model: new MockLanguageModelV3({ doGenerate: result(JSON.stringify(bad)) }) }));
    expect([e.status, e.code]).toEqual([502, "SCHEMA_GENERATION_FAILED"]);
    expect(e.message).toContain("snake_case");
  });

  it("refuses prose instead of JSON (502)", async () => {
    const e = await failure(generateSchema({ description: "custodial terms" }, { model: new MockLanguageModelV3({ doGenerate: result("Here is a schema you might like.") }) }));
    expect(e.code).toBe("SCHEMA_GENERATION_FAILED");
  });

  it("gives up at its time-out (504 UPSTREAM_TIMEOUT)", async () => {
    const slow = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal?.addEventListener("abort", () => reject(abortSignal.reason));
        }),
    });
    const e = await failure(generateSchema({ description: "custodial terms" }, { model: slow, timeoutMs: 50 }));
    expect([e.status, e.code]).toEqual([504, "UPSTREAM_TIMEOUT"]);
  });
});
