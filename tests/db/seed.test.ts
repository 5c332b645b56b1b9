import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { corpusIsEmpty, seedCorpus } from "@/supabase/seed/corpus";
import { GENERATOR_VERSION, generateJudgment } from "@/supabase/seed/generate";

// A seed no other suite uses, so this slice can be added and removed next to the stack's own 600-row slice.
const SEED = 424_242;
const SIZE = 40;
const pool = adminPool();
const columns = Object.keys(generateJudgment(SEED, 0));

async function removeSlice() {
  await pool.query("delete from public.judgments where source_id like $1", [`demo-${SEED}-%`]);
}

/** md5 over the slice's generated columns, in source_id order. */
async function sliceChecksum(): Promise<string> {
  const { rows } = await pool.query<{ sum: string; n: number }>(
    `select md5(string_agg(md5(r::text), ',' order by r.source_id)) as sum, count(*)::int as n
       from (select ${columns.join(", ")} from public.judgments where source_id like $1) r`,
    [`demo-${SEED}-%`],
  );
  expect(rows[0].n).toBe(SIZE);
  return rows[0].sum;
}

beforeAll(removeSlice);
afterAll(async () => {
  await removeSlice();
  await pool.end();
});

describe("seeding the demo corpus", () => {
  it("the test stack holds the fixed slice", async () => {
    expect(await corpusIsEmpty(stackEnv().databaseUrl)).toBe(false);
  });

  it("records the corpus version (seed, size, generator version); a slice added next to it does not change it", async () => {
    const read = async () =>
      (await pool.query<{ seed: string; size: number; generator_version: string; version_id: string }>("select seed, size, generator_version, version_id from public.corpus_version")).rows;
    const expected = [{ seed: "7", size: 600, generator_version: GENERATOR_VERSION, version_id: `${GENERATOR_VERSION}-s7-n600` }];
    expect(await read()).toEqual(expected);
    const { rows } = await pool.query<{ v: string }>("select public.corpus_version_id() as v");
    expect(rows[0].v).toBe(`${GENERATOR_VERSION}-s7-n600`);
    await seedCorpus(stackEnv().databaseUrl, { size: 3, seed: SEED });
    expect(await read()).toEqual(expected);
    await removeSlice();
  });

  it("two seeds with the same seed store identical rows (checksum on a slice)", async () => {
    const first = await seedCorpus(stackEnv().databaseUrl, { size: SIZE, seed: SEED });
    expect(first.inserted).toBe(SIZE);
    const a = await sliceChecksum();
    await removeSlice();
    await seedCorpus(stackEnv().databaseUrl, { size: SIZE, seed: SEED });
    expect(await sliceChecksum()).toBe(a);
  });

  it("stores exactly what the generator produced", async () => {
    const { rows } = await pool.query(
      `select ${columns.map((c) => `to_jsonb(${c}) as ${c}`).join(", ")} from public.judgments where source_id like $1 order by source_id limit 10`,
      [`demo-${SEED}-%`],
    );
    for (const [i, row] of rows.entries()) {
      const expected = JSON.parse(JSON.stringify(generateJudgment(SEED, i))) as Record<string, unknown>;
      for (const c of columns) {
        const got = row[c];
        const want = expected[c];
        if (c === "created_at" || c === "updated_at" || c === "base_extracted_at") {
          expect([c, got === null ? null : Date.parse(got as string)]).toEqual([c, want === null ? null : Date.parse(want as string)]);
        } else {
          expect([c, got]).toEqual([c, want ?? null]);
        }
      }
    }
  });

  it("a failing seed writes nothing", async () => {
    await removeSlice();
    // The first row of the slice already exists, so the batch insert violates the primary key and rolls back whole.
    await seedCorpus(stackEnv().databaseUrl, { size: 1, seed: SEED });
    await expect(seedCorpus(stackEnv().databaseUrl, { size: SIZE, seed: SEED })).rejects.toThrow(/duplicate key/);
    const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from public.judgments where source_id like $1", [`demo-${SEED}-%`]);
    expect(rows[0].n).toBe(1);
  });
});
