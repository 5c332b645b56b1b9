/**
 * The pure parts of the importers (lib/import): display titles from structured fields, the date and judge-name
 * checks, the HTML sanitiser's refusals, and the command's arguments.
 */
import { describe, expect, it } from "vitest";
import { parseArgs } from "@/server/cli/import-cli";
import { checkDate, httpUrl, judgeNameProblem, sanitiseHtml, htmlToText } from "@/lib/import/common";
import { crownCaseName, judgmentTitle, plCourtGenitive } from "@/lib/import/title";

describe("judgmentTitle", () => {
  it("PL: kind, court in the genitive, date in words, case number", () => {
    expect(judgmentTitle({ jurisdiction: "PL", kind: "SENTENCE", courtName: "Sąd Apelacyjny w Poznaniu", date: "2019-04-05", caseNumbers: ["II AKa 516/19"] })).toBe(
      "Wyrok Sądu Apelacyjnego w Poznaniu z dnia 5 kwietnia 2019 r., II AKa 516/19",
    );
    expect(judgmentTitle({ jurisdiction: "PL", kind: "DECISION", courtName: "Sąd Najwyższy", date: "2020-12-01", caseNumbers: ["I KZP 1/20"] })).toBe(
      "Postanowienie Sądu Najwyższego z dnia 1 grudnia 2020 r., I KZP 1/20",
    );
    expect(judgmentTitle({ jurisdiction: "PL", kind: "RESOLUTION", courtName: "Naczelny Sąd Administracyjny", date: null, caseNumbers: [] })).toBe(
      "Uchwała Naczelnego Sądu Administracyjnego",
    );
  });

  it("PL court names in the genitive", () => {
    expect(plCourtGenitive("Sąd Okręgowy w Warszawie")).toBe("Sądu Okręgowego w Warszawie");
    expect(plCourtGenitive("Sąd Rejonowy dla Krakowa-Śródmieścia w Krakowie")).toBe("Sądu Rejonowego dla Krakowa-Śródmieścia w Krakowie");
    expect(plCourtGenitive("Wojewódzki Sąd Administracyjny we Wrocławiu")).toBe("Wojewódzkiego Sądu Administracyjnego we Wrocławiu");
    expect(plCourtGenitive("Trybunał Konstytucyjny")).toBe("Trybunału Konstytucyjnego");
    expect(plCourtGenitive("Krajowa Izba Odwoławcza")).toBe("Krajowej Izby Odwoławczej");
  });

  it("UK: the case name with the neutral citation beside it; R v Surname from a defendant", () => {
    expect(judgmentTitle({ jurisdiction: "UK", caseName: "R v Smith", neutralCitation: "[2019] EWCA Crim 1234" })).toBe("R v Smith [2019] EWCA Crim 1234");
    expect(judgmentTitle({ jurisdiction: "UK", caseName: null, neutralCitation: "[2019] EWCA Crim 1234" })).toBe("[2019] EWCA Crim 1234");
    expect(crownCaseName("JOHN PAUL SMITH")).toBe("R v Smith");
    expect(crownCaseName("Anna McDonald")).toBe("R v McDonald");
  });
});

describe("checks", () => {
  const today = new Date("2026-12-01T00:00:00Z");
  it("dates: impossible ones are problems, never corrected", () => {
    expect(checkDate("2016-04-14", "d", today)).toEqual({ date: "2016-04-14" });
    expect(checkDate("1994-07-20 02:00:00.0 CEST", "d", today)).toEqual({ date: "1994-07-20" });
    expect(checkDate("2101-04-14", "judgmentDate", today)).toEqual({ problem: "judgmentDate 2101-04-14 is impossible (after today, 2026-12-01)" });
    expect(checkDate("3013-12-04", "judgmentDate", today)).toMatchObject({ problem: expect.stringMatching(/3013-12-04 is impossible/) });
    expect(checkDate("2019-02-30", "d", today)).toMatchObject({ problem: expect.stringMatching(/not a calendar date/) });
    expect(checkDate("14.04.2016", "d", today)).toMatchObject({ problem: expect.stringMatching(/not a date/) });
    expect(checkDate("", "d", today)).toEqual({ date: null });
  });

  it("judges' names run together are named; single names, titles and 'Master of the Rolls' are not", () => {
    expect(judgeNameProblem("SW Jacek Sikorski i Bogdan Gierzyński")).toMatch(/two names/);
    expect(judgeNameProblem("Anna KowalskaJan Nowak")).toMatch(/run together/);
    expect(judgeNameProblem("LORD JUSTICE HOLROYDE, MR JUSTICE JAY")).toMatch(/list of names/);
    expect(judgeNameProblem("SIR GEOFFREY VOS, MASTER OF THE ROLLS")).toBeNull();
    expect(judgeNameProblem("SSA Anna Nowak-Kowalska")).toBeNull();
    expect(judgeNameProblem("LORD JUSTICE DINGEMANS")).toBeNull();
    expect(judgeNameProblem("Mrs Justice McGowan")).toBeNull();
    expect(judgeNameProblem("Lord Justice MacKenzie")).toBeNull();
  });

  it("only http(s) URLs are kept", () => {
    expect(httpUrl("https://www.saos.org.pl/judgments/1")).toBe("https://www.saos.org.pl/judgments/1");
    expect(httpUrl("javascript:alert(1)")).toBeNull();
    expect(httpUrl("file:///etc/passwd")).toBeNull();
  });

  it("HTML that sanitising would have to cut is refused, not silently cleaned; allowed markup is kept", () => {
    expect(sanitiseHtml("<p>a</p><script>x()</script>")).toEqual({ problem: 'HTML fails sanitising: "<script" would be removed' });
    expect(sanitiseHtml('<p onclick="x()">a</p>')).toMatchObject({ problem: expect.stringMatching(/onclick/) });
    expect(sanitiseHtml('<a href="javascript:x()">a</a>')).toMatchObject({ problem: expect.stringMatching(/javascript/) });
    const ok = sanitiseHtml('<p class="x" style="color:red">Sąd <span class="anon">J. K.</span><!-- c --></p>');
    expect(ok).toEqual({ html: '<p>Sąd <span class="anon">J. K.</span></p>' });
    expect(htmlToText('<h2>WYROK</h2><p>Dnia 1 &amp; 2</p><p>x<br>y</p>')).toBe("WYROK\n\nDnia 1 & 2\n\nx\n\ny");
  });
});

describe("arguments", () => {
  it("source, inputs and flags", () => {
    expect(parseArgs(["--", "saos", "a.json", "dir", "--limit", "5", "--dry-run", "--no-sync"])).toEqual({
      source: "saos",
      inputs: ["a.json", "dir"],
      dryRun: true,
      limit: 5,
      sync: false,
      batchSize: 200,
    });
    expect(parseArgs(["fcl", "x.xml", "--batch=50"])).toMatchObject({ source: "fcl", batchSize: 50, sync: true, limit: null });
    expect(parseArgs(["westlaw", "x"])).toEqual({ error: 'unknown source "westlaw" (one of saos, fcl, juddges, jsonl)' });
    expect(parseArgs(["saos"])).toEqual({ error: "no file, directory or glob given" });
    expect(parseArgs(["saos", "a", "--limit", "0"])).toEqual({ error: "--limit needs a positive integer" });
    expect(parseArgs([])).toEqual({ error: "no source given" });
  });
});
