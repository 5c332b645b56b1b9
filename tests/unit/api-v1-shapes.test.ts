import { describe, expect, it } from "vitest";
import { filterNode, fragments, paging } from "@/lib/backend/api-v1/documents";
import { parseFilterParam } from "@/lib/backend/search";
import { V1SearchBody } from "@/lib/schema/requests/api-v1";

describe("reference API shapes", () => {
  it("pages: 1-based page of per_page rows and the page count", () => {
    expect(paging(0, 20, 0)).toEqual({ total: 0, page: 1, per_page: 20, pages: 0 });
    expect(paging(41, 20, 40)).toEqual({ total: 41, page: 3, per_page: 20, pages: 3 });
    expect(paging(10, 3, 4)).toEqual({ total: 10, page: 2, per_page: 3, pages: 4 });
  });

  it("turns the reference filters into a filter node (dates on the epoch twin, the to-day included), never a string", () => {
    expect(filterNode(undefined)).toBeUndefined();
    expect(filterNode({})).toBeUndefined();
    const node = filterNode({ jurisdiction: "UK", court_level: "Court of Appeal", decision_date_from: "2019-01-01", decision_date_to: "2019-12-31" });
    expect(node).toEqual({
      type: "and",
      children: [
        { type: "compare", attribute: "jurisdiction", op: "=", value: "UK" },
        { type: "compare", attribute: "court_level", op: "=", value: "Court of Appeal" },
        { type: "compare", attribute: "decision_date_ts", op: ">=", value: 1546300800 },
        { type: "compare", attribute: "decision_date_ts", op: "<", value: 1577750400 + 86_400 },
      ],
    });
    // The node is what the old expression parsed to: the search engine sees the same filter as before.
    expect(node).toEqual(
      parseFilterParam(`jurisdiction = "UK" AND court_level = "Court of Appeal" AND decision_date_ts >= 1546300800 AND decision_date_ts < ${1577750400 + 86_400}`),
    );
  });

  it("refuses filter values that would need escaping, and unknown keys", () => {
    const r = V1SearchBody.safeParse({ query: "x", filters: { case_type: 'a" OR 1=1', extra: 1 } });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["filters", "filters.case_type"]);
  });

  it("cuts highlight fragments around each match, never inside a mark", () => {
    const text = `The <mark>appeal</mark> against ${"word ".repeat(30)}and another <mark>appeal</mark> here.`;
    const out = fragments(text);
    expect(out).toHaveLength(2);
    for (const f of out) expect(f.split("<mark>").length).toBe(f.split("</mark>").length);
    expect(out[0].startsWith("The <mark>appeal</mark>")).toBe(true);
    expect(out[1].endsWith("<mark>appeal</mark> here.")).toBe(true);
    expect(fragments("nothing marked")).toEqual([]);
    expect(fragments(undefined)).toEqual([]);
  });
});
