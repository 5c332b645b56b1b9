import { describe, expect, it } from "vitest";
import { composeDigest, dueFrequencies, savedSearchPath } from "@/lib/backend/alerts/digest";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "@/lib/backend/alerts/token";
import { alertDigestJobs } from "@/lib/backend/alerts/run";

const SEARCH = "0b5f8f0e-6a53-4f0c-9d1e-2f5d8b1a7c11";
const NONCE = "9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
const SECRET = "a-test-secret-of-enough-length";

describe("unsubscribe tokens", () => {
  it("verify what was signed; refuse another secret, a changed payload, garbage", () => {
    const token = signUnsubscribeToken(SEARCH, NONCE, SECRET);
    expect(verifyUnsubscribeToken(token, SECRET)).toEqual({ savedSearchId: SEARCH, nonce: NONCE });
    expect(verifyUnsubscribeToken(token, "another-secret-of-enough-length")).toBeNull();
    const [payload, sig] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ s: NONCE, n: NONCE })).toString("base64url");
    expect(verifyUnsubscribeToken(`${forged}.${sig}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${payload}.${sig}.x`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken("not-a-token", SECRET)).toBeNull();
  });
});

describe("the digest schedule", () => {
  it("daily every day, weekly too on Mondays; the jobs are scheduled at 07:00 and Mondays 08:00 server time", () => {
    const monday = new Date(2026, 10, 23, 9, 0);
    const tuesday = new Date(2026, 10, 24, 9, 0);
    expect(dueFrequencies(monday)).toEqual(["daily", "weekly"]);
    expect(dueFrequencies(tuesday)).toEqual(["daily"]);
    // pg-boss cron jobs of the worker: minute 0 of hour 7 every day; minute 0 of hour 8 on day-of-week 1 (Monday);
    // both in the server's time zone, as dueFrequencies reads the date.
    const [daily, weekly] = alertDigestJobs({ smtpUrl: "smtp://127.0.0.1:1" });
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect({ name: daily.name, cron: daily.cron, tz: daily.tz }).toEqual({ name: "alert_digest_daily", cron: "0 7 * * *", tz });
    expect({ name: weekly.name, cron: weekly.cron, tz: weekly.tz }).toEqual({ name: "alert_digest_weekly", cron: "0 8 * * 1", tz });
    // A refused slot (another run under way) is tried again an hour later, as before.
    expect([daily.retryDelaySeconds, weekly.retryDelaySeconds]).toEqual([3600, 3600]);
  });
});

describe("the digest mail", () => {
  const section = (language: string) => ({
    search: {
      id: SEARCH,
      user_id: "u",
      name: "Kradzież <b>",
      kind: "extractions" as const,
      query: "",
      params: { url: "?f=abc" },
      since: new Date(),
      nonce: NONCE,
      email: "r@example.org",
      language,
    },
    items: [{ id: NONCE, title: "R v <Smith>", case_number: "2019/1", decision_date: "2019-05-01" }],
    total: 7,
  });

  it("is in the user's language, escapes HTML, links each judgment, the search and a per-search unsubscribe", () => {
    const en = composeDigest([section("en")], { appUrl: "https://app.example/", tokenSecret: SECRET, to: "r@example.org", language: "en" });
    expect(en.subject).toBe("1 new judgment for your saved searches");
    expect(en.text).toContain("1 of 7 new judgments");
    expect(en.text).toContain(`https://app.example/documents/${NONCE}`);
    expect(en.text).toContain("https://app.example/search/extractions?f=abc");
    expect(en.html).toContain("Kradzież &lt;b&gt;");
    expect(en.html).toContain("R v &lt;Smith&gt;");
    expect(en.html).not.toContain("<Smith>");
    const token = decodeURIComponent(/unsubscribe\?token=([^\s"]+)/.exec(en.text)?.[1] ?? "");
    expect(verifyUnsubscribeToken(token, SECRET)).toEqual({ savedSearchId: SEARCH, nonce: NONCE });
    expect(en.headers?.["List-Unsubscribe"]).toContain("/unsubscribe?token=");
    const pl = composeDigest([section("pl")], { appUrl: "https://app.example", tokenSecret: SECRET, to: "r@example.org", language: "pl" });
    expect(pl.subject).toBe("1 nowe orzeczenie dla zapisanych wyszukiwań");
    expect(pl.text).toContain("1 z 7 nowych orzeczeń");
    // No code in what the reader reads: the text with its links taken out has no snake_case token.
    for (const mail of [en, pl]) {
      const words = `${mail.subject}\n${mail.text}`.replace(/https?:\/\/\S+/g, "");
      expect(words).not.toMatch(/\b[a-z]+(_[a-z0-9]+)+\b/);
    }
  });

  it("restores only a query string as the saved page's state", () => {
    expect(savedSearchPath("search", { url: "?q=x" })).toBe("/search?q=x");
    expect(savedSearchPath("search", { url: "https://evil.example" })).toBe("/search");
  });
});
