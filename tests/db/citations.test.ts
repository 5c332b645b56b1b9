/**
 * The citation graph on real Postgres (migration 20261207700000, lib/citations/store.ts): a rebuild stores each
 * reference with its exact span and canonical id, resolves case references to corpus judgments (case number + the
 * court the text states; neutral citation; a report citation through its parallel neutral citation), keeps the
 * ambiguous and unknown ones as external, never a judgment's own number; cited_by_count counts distinct citing
 * judgments; a second rebuild changes nothing; the table is read like the judgments (signed-in only) and written by
 * the service role only. Every case runs in a transaction rolled back.
 */
import { afterAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { rebuildCitations } from "@/lib/citations/store";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

async function inTx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query("begin");
    return await fn(c);
  } finally {
    await c.query("rollback");
    c.release();
  }
}

interface J {
  jurisdiction: "PL" | "UK";
  text: string;
  case_number?: string;
  neutral?: string;
  court?: string;
  date?: string;
}

async function insert(c: pg.PoolClient, j: J): Promise<string> {
  const { rows } = await c.query<{ id: string }>(
    `insert into public.judgments (full_text, jurisdiction, case_number, base_neutral_citation_number, court_name, decision_date)
     values ($1, $2, $3, $4, $5, $6) returning id::text`,
    [j.text, j.jurisdiction, j.case_number ?? null, j.neutral ?? null, j.court ?? null, j.date ?? null],
  );
  return rows[0].id;
}

interface Row {
  ordinal: number;
  kind: string;
  origin: string;
  raw_text: string;
  span_start: number | null;
  span_end: number | null;
  canonical_id: string | null;
  target: string | null;
  resolved: boolean;
  court: string | null;
  cited_date: string | null;
  case_name: string | null;
  citation_group: number | null;
}

const refsOf = async (c: pg.PoolClient, id: string) =>
  (
    await c.query<Row>(
      `select ordinal, kind, origin, raw_text, span_start, span_end, canonical_id, target_judgment_id::text as target, resolved,
              court, cited_date::text, case_name, citation_group
         from public.judgment_references where source_judgment_id = $1 order by ordinal`,
      [id],
    )
  ).rows;

const count = async (c: pg.PoolClient, id: string) =>
  (await c.query<{ n: number }>("select cited_by_count as n from public.judgments where id = $1", [id])).rows[0].n;

/** A small graph of unusual case numbers (not in the demo corpus), its citing texts, and their ids. */
async function plant(c: pg.PoolClient) {
  const krakow = await insert(c, { jurisdiction: "PL", text: "Wyrok.", case_number: "II AKa 98701/26", court: "Sąd Apelacyjny w Krakowie", date: "2026-03-03" });
  const gdansk = await insert(c, { jurisdiction: "PL", text: "Wyrok.", case_number: "II AKa 98701/26", court: "Sąd Apelacyjny w Gdańsku", date: "2026-04-04" });
  const leading = await insert(c, { jurisdiction: "UK", text: "Judgment.", neutral: "[2026] EWCA Crim 98701", case_number: "202698701 B1" });
  const plText =
    "Sygn. akt II AKa 98702/26. Sąd zważył, że kradzież z włamaniem (art. 279 § 1 k.k.) wymaga… Zob. wyrok Sądu Apelacyjnego w Krakowie z dnia 3 marca 2026 r., II AKa 98701/26, " +
    "a także wyrok w sprawie II AKa 98701/26 oraz wyrok Sądu Najwyższego z dnia 20 stycznia 2016 r., V KK 98799/15.";
  const plCiting = await insert(c, { jurisdiction: "PL", text: plText, case_number: "II AKa 98702/26", court: "Sąd Apelacyjny w Warszawie" });
  const plCiting2 = await insert(c, {
    jurisdiction: "PL",
    text: "Por. wyrok SA w Krakowie z 3.03.2026 r., II AKa 98701/26, i jeszcze raz wyrok Sądu Apelacyjnego w Krakowie, II AKa 98701/26.",
    case_number: "II AKa 98703/26",
  });
  const ukText =
    "1. The appellant was convicted under section 18 of the Offences Against the Person Act 1861. In R v Leading [2026] EWCA Crim 98701; [2026] 1 Cr App R (S) 987 this court held… " +
    "We were also shown [2026] EWCA Crim 98799.";
  const ukCiting = await insert(c, { jurisdiction: "UK", text: ukText, neutral: "[2026] EWCA Crim 98702" });
  return { krakow, gdansk, leading, plCiting, plCiting2, ukCiting, plText, ukText };
}

describe("citations rebuild", () => {
  it("stores every reference with its span and canonical id, resolving case references to the corpus", async () => {
    await inTx(async (c) => {
      const g = await plant(c);
      const result = await rebuildCitations(c, { ids: [g.plCiting, g.plCiting2, g.ukCiting, g.krakow, g.gdansk, g.leading] });
      expect(result).toMatchObject({ judgments: 6 });

      const pl = await refsOf(c, g.plCiting);
      for (const r of pl) expect(g.plText.slice(r.span_start ?? 0, r.span_end ?? 0)).toBe(r.raw_text);
      expect(pl.map((r) => [r.kind, r.canonical_id, r.target, r.resolved])).toEqual([
        ["legislation", "PL/kk/279/§1", null, false],
        // court and date stated: the Kraków judgment, not the Gdańsk one with the same number
        ["case", "pl:ii aka 98701/26", g.krakow, true],
        // no court: two judgments carry the number, so it stays external
        ["case", "pl:ii aka 98701/26", null, false],
        // not in the corpus: kept as an external reference
        ["case", "pl:v kk 98799/15", null, false],
      ]);
      expect(pl[1]).toMatchObject({ court: "Sądu Apelacyjnego w Krakowie", cited_date: "2026-03-03", origin: "text" });
      // its own number ("Sygn. akt II AKa 98702/26") is not a reference
      expect(pl.some((r) => r.canonical_id === "pl:ii aka 98702/26")).toBe(false);

      const uk = await refsOf(c, g.ukCiting);
      for (const r of uk) expect(g.ukText.slice(r.span_start ?? 0, r.span_end ?? 0)).toBe(r.raw_text);
      expect(uk.map((r) => [r.kind, r.canonical_id, r.target])).toEqual([
        ["legislation", "UK/ukpga/1861/100/s18", null],
        ["case", "uk:2026 ewca crim 98701", g.leading],
        // the report citation resolves through the neutral citation printed with it
        ["case", "ukrep:2026 1 cr app r (s) 987", g.leading],
        ["case", "uk:2026 ewca crim 98799", null],
      ]);
      expect(uk[1].case_name).toBe("R v Leading");
      expect(uk[1].citation_group).toBe(uk[2].citation_group);

      // distinct citing judgments: Kraków is cited by two (one of them twice), Gdańsk by none, the UK case by one
      expect([await count(c, g.krakow), await count(c, g.gdansk), await count(c, g.leading)]).toEqual([2, 0, 1]);
    });
  });

  it("is idempotent: a second rebuild writes the same rows and changes no count", async () => {
    await inTx(async (c) => {
      const g = await plant(c);
      const ids = [g.plCiting, g.plCiting2, g.ukCiting];
      const first = await rebuildCitations(c, { ids });
      const rowsOf = async () => {
        const out: Row[][] = [];
        for (const id of ids) out.push(await refsOf(c, id));
        return out;
      };
      const rows1 = await rowsOf();
      const second = await rebuildCitations(c, { ids });
      const rows2 = await rowsOf();
      expect(rows2).toEqual(rows1);
      expect(second.references).toBe(first.references);
      expect(second.resolved).toBe(first.resolved);
      expect(first.countsChanged).toBe(2);
      expect(second.countsChanged).toBe(0);
    });
  });

  it("a full rebuild over the demo corpus: spans are the text's, counts are distinct citing judgments, a rerun changes nothing", async () => {
    await inTx(async (c) => {
      const first = await rebuildCitations(c);
      const total = (await c.query<{ n: number }>("select count(*)::int as n from public.judgments")).rows[0].n;
      expect(first.judgments).toBe(total);
      expect(first.references).toBeGreaterThan(0);
      // Spans checked in the texts of a sample of citing judgments (a join detoasting a text per reference is slow).
      const { rows: sample } = await c.query<{ id: string; full_text: string }>(
        `select j.id::text, j.full_text from public.judgments j
          where exists (select 1 from public.judgment_references r where r.source_judgment_id = j.id) order by j.id limit 40`,
      );
      expect(sample.length).toBeGreaterThan(0);
      for (const j of sample) {
        for (const r of await refsOf(c, j.id)) {
          if (r.origin === "text") expect(j.full_text.slice(r.span_start ?? 0, r.span_end ?? 0)).toBe(r.raw_text);
        }
      }
      const wrong = await c.query(
        `select j.id from public.judgments j
          where j.cited_by_count <> (select count(distinct r.source_judgment_id) from public.judgment_references r
                                      where r.target_judgment_id = j.id and r.kind = 'case') limit 5`,
      );
      expect(wrong.rows).toEqual([]);
      const second = await rebuildCitations(c);
      expect(second).toMatchObject({ judgments: first.judgments, references: first.references, resolved: first.resolved, countsChanged: 0 });
    });
  }, 180_000);

  it("a deleted citing judgment takes its edges along; the recount follows", async () => {
    await inTx(async (c) => {
      const g = await plant(c);
      await rebuildCitations(c, { ids: [g.plCiting, g.plCiting2] });
      expect(await count(c, g.krakow)).toBe(2);
      await c.query("delete from public.judgments where id = $1", [g.plCiting2]);
      expect((await c.query("select 1 from public.judgment_references where source_judgment_id = $1", [g.plCiting2])).rows).toEqual([]);
      const { rows } = await c.query<{ n: number }>("select public.judgment_cited_by_refresh(array[$1]::uuid[]) as n", [g.krakow]);
      expect(rows[0].n).toBe(1);
      expect(await count(c, g.krakow)).toBe(1);
    });
  });

  it("rejects a self-citation row and a half span", async () => {
    await inTx(async (c) => {
      const g = await plant(c);
      const insertRow = (target: string, start: number | null, end: number | null) =>
        c.query(
          `insert into public.judgment_references (source_judgment_id, ordinal, kind, jurisdiction, origin, raw_text, span_start, span_end, target_judgment_id, extractor_version)
           values ($1, 0, 'case', 'PL', 'text', 'x', $3, $4, $2, 't')`,
          [g.plCiting, target, start, end],
        );
      await c.query("savepoint s");
      await expect(insertRow(g.plCiting, 0, 1)).rejects.toMatchObject({ code: "23514" });
      await c.query("rollback to savepoint s");
      await expect(insertRow(g.krakow, 0, null)).rejects.toMatchObject({ code: "23514" });
    });
  });
});

describe("judgment_references access", () => {
  const plantAndRebuild = async (c: pg.PoolClient) => {
    const g = await plant(c);
    await rebuildCitations(c, { ids: [g.plCiting] });
    return g;
  };

  it("signed-in users read the references, like the judgments", async () => {
    const n = await asRole(
      pool,
      "authenticated",
      userClaims("33333333-3333-4333-8333-333333333333"),
      async (c) => (await c.query<{ n: number }>("select count(*)::int as n from public.judgment_references where canonical_id = 'pl:ii aka 98701/26'")).rows[0].n,
      { rollback: true, before: async (c) => void (await plantAndRebuild(c)) },
    );
    expect(n).toBe(2);
  });

  it("anon reads nothing; a signed-in user writes nothing and cannot recount", async () => {
    await expect(asRole(pool, "anon", null, (c) => c.query("select 1 from public.judgment_references limit 1"), { rollback: true })).rejects.toMatchObject({ code: "42501" });
    const user = userClaims("44444444-4444-4444-8444-444444444444");
    await expect(
      asRole(pool, "authenticated", user, (c) => c.query("delete from public.judgment_references"), { rollback: true }),
    ).rejects.toMatchObject({ code: "42501" });
    await expect(
      asRole(pool, "authenticated", user, (c) => c.query("select public.judgment_cited_by_refresh(null)"), { rollback: true }),
    ).rejects.toMatchObject({ code: "42501" });
  });
});

describe("citing_judgments (the cited-by list and provision pages)", () => {
  interface Citer {
    date: string | null;
    outcome: string | null;
    court: string;
    refs: number;
  }
  // Ties on every key the sorts use (dates, outcomes, cited_by_count), undated and outcome-less citers.
  const citers: Citer[] = [
    { date: "2019-03-01", outcome: "dismissed", court: "Court A", refs: 1 },
    { date: "2019-03-01", outcome: "allowed", court: "Court B", refs: 2 },
    { date: "2021-07-15", outcome: "dismissed", court: "Court A", refs: 1 },
    { date: null, outcome: null, court: "Court B", refs: 1 },
    { date: "2017-01-09", outcome: "allowed", court: "Court A", refs: 3 },
    { date: "2021-07-15", outcome: null, court: "Court A", refs: 1 },
    { date: null, outcome: "dismissed", court: "Court A", refs: 1 },
    { date: "2020-11-30", outcome: "remitted", court: "Court B", refs: 1 },
  ];
  type Item = { id: string; decision_date: string | null; outcome: string | null; cited_by_count: number; references: number };
  type Answer = { total: number; by_year: { year: number; count: number }[]; by_outcome: { outcome: string; count: number }[]; items: Item[] };

  async function plant(c: pg.PoolClient) {
    const target = await insert(c, { jurisdiction: "PL", text: "Wyrok.", case_number: "II AKa 1/19" });
    const ids: string[] = [];
    for (const [i, x] of citers.entries()) {
      const id = await insert(c, { jurisdiction: "PL", text: `Wyrok ${i}.`, court: x.court, date: x.date ?? undefined });
      await c.query("update public.judgments set outcome = $2, cited_by_count = $3 where id = $1", [id, x.outcome, i % 3]);
      for (let r = 0; r < x.refs; r++) {
        await c.query(
          `insert into public.judgment_references (source_judgment_id, ordinal, kind, jurisdiction, origin, raw_text, canonical_id, target_judgment_id, extractor_version)
           values ($1, $2, 'case', 'PL', 'text', 'II AKa 1/19', 'pl:ii aka 1/19', $3, 'test')`,
          [id, r, target],
        );
      }
      ids.push(id);
    }
    return { target, ids };
  }

  const call = async (c: pg.PoolClient, target: string, extra: string, params: unknown[] = []) =>
    (await c.query<{ a: Answer | null }>(`select public.citing_judgments($1${extra}) as a`, [target, ...params])).rows[0].a;

  it("counts the whole filtered set in one answer: total, per year (undated left out) and per outcome (most first)", async () => {
    await inTx(async (c) => {
      const { target } = await plant(c);
      const a = (await call(c, target, ""))!;
      expect(a.total).toBe(citers.length);
      expect(a.by_year).toEqual([
        { year: 2017, count: 1 },
        { year: 2019, count: 2 },
        { year: 2020, count: 1 },
        { year: 2021, count: 2 },
      ]);
      expect(a.by_outcome).toEqual([
        { outcome: "dismissed", count: 3 },
        { outcome: "allowed", count: 2 },
        { outcome: "unknown", count: 2 },
        { outcome: "remitted", count: 1 },
      ]);
      const courtB = (await call(c, target, ", p_court => $2", ["Court B"]))!;
      expect(courtB.total).toBe(3);
      expect(courtB.by_outcome).toEqual([
        { outcome: "allowed", count: 1 },
        { outcome: "remitted", count: 1 },
        { outcome: "unknown", count: 1 },
      ]);
      const none = (await call(c, target, ", p_from => $2::date", ["2030-01-01"]))!;
      expect(none).toEqual({ total: 0, by_year: [], by_outcome: [], items: [] });
    });
  });

  it("pages are cuts of one total order per sort; each item counts its references to the target", async () => {
    await inTx(async (c) => {
      const { target, ids } = await plant(c);
      const byId = new Map(ids.map((id, i) => [id, citers[i]]));
      // Dates as the SQL orders them: nulls last both ways; the id (uuid order = its text's order) breaks every tie.
      const asc = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
      const desc = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? 1 : -1);
      const byIdText = (x: Item, y: Item) => (x.id < y.id ? -1 : 1);
      const orders: Record<string, (x: Item, y: Item) => number> = {
        newest: (x, y) => desc(x.decision_date, y.decision_date) || byIdText(x, y),
        oldest: (x, y) => asc(x.decision_date, y.decision_date) || byIdText(x, y),
        cited_by: (x, y) => y.cited_by_count - x.cited_by_count || desc(x.decision_date, y.decision_date) || byIdText(x, y),
      };
      for (const sort of Object.keys(orders)) {
        const all = (await call(c, target, ", p_sort => $2, p_limit => 100", [sort]))!.items;
        expect([...all].sort(orders[sort]).map((i) => i.id), sort).toEqual(all.map((i) => i.id));
        for (const i of all) expect(i.references).toBe(byId.get(i.id)!.refs);
        const paged: Item[] = [];
        for (let offset = 0; offset < citers.length; offset += 3) {
          const page = (await call(c, target, ", p_sort => $2, p_limit => 3, p_offset => $3", [sort, offset]))!;
          expect(page.total).toBe(citers.length);
          paged.push(...page.items);
        }
        expect(paged.map((i) => i.id), sort).toEqual(all.map((i) => i.id));
      }
      expect(await call(c, "00000000-0000-0000-0000-000000000000", "")).toBeNull();
    });
  });
});
