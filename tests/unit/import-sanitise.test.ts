/**
 * The importers' HTML sanitiser (lib/import/sanitise.ts) against the page's: on the real samples and on generated
 * markup it writes exactly what sanitize-html writes with the page's allowlist, and its text is htmlToText of that;
 * from every source, script, `on…` handlers and non-http(s) links never reach a stored judgment, and what is stored
 * is a fixed point of the page's sanitiser (nothing in it would be cut when served).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sanitizeHtml from "sanitize-html";
import { describe, expect, it } from "vitest";
import { htmlToText, SANITIZE_OPTIONS } from "@/lib/import/common";
import { readFcl, renderAkn } from "@/lib/import/fcl";
import { readJuddges, renderPortalXml } from "@/lib/import/juddges";
import { ALLOWLIST, sanitiseMarkup } from "@/lib/import/sanitise";
import { readSaos } from "@/lib/import/saos";
import type { ReadItem } from "@/lib/import/types";
import type { ReaderContext } from "@/lib/import/reader";
import { isEl, xmlStringTree, type XmlElement } from "@/lib/import/xml";

const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
const dir = mkdtempSync(path.join(tmpdir(), "import-sanitise-"));
const ctx: ReaderContext = { onBytes: () => undefined, today: new Date("2026-12-01T00:00:00Z"), stop: () => false };

async function read(reader: (file: string, ctx: ReaderContext) => AsyncGenerator<ReadItem>, name: string, content: string): Promise<ReadItem[]> {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  const out: ReadItem[] = [];
  for await (const item of reader(file, ctx)) out.push(item);
  return out;
}

function expectSameAsSanitizeHtml(markup: string) {
  const want = sanitizeHtml(markup, SANITIZE_OPTIONS);
  const got = sanitiseMarkup(markup);
  expect(got.html).toBe(want);
  expect(got.text).toBe(htmlToText(want));
}

/** Every tag and attribute of the HTML is on the allowlist, and links are http(s) or relative. */
function expectOnlyAllowlisted(html: string) {
  for (const tag of html.matchAll(/<\/?([^\s>/]+)([^>]*?)(?: \/)?>/g)) {
    expect(ALLOWLIST.tags).toContain(tag[1]);
    for (const a of tag[2].matchAll(/ ([^\s=]+)(?:="([^"]*)")?/g)) {
      expect([...ALLOWLIST.attributes["*"], ...(ALLOWLIST.attributes[tag[1]] ?? [])]).toContain(a[1]);
      // A link has no scheme (relative) or http(s).
      if (a[1] === "href") expect(/^[a-z][a-z0-9+.-]*:/i.test(a[2]) ? a[2] : "http:").toMatch(/^https?:/i);
    }
  }
}

/**
 * Stored HTML of a source record: allowlisted, no script, handler or javascript:/data: link in it at all, and the
 * page's sanitiser (run again when the judgment is served) keeps all of it. (On arbitrary markup sanitize-html is not
 * idempotent itself: an implied close inside a dropped element can nest what a second parse splits.)
 */
function expectInert(html: string | null) {
  expect(html).not.toBeNull();
  const h = html as string;
  expectOnlyAllowlisted(h);
  expect(sanitizeHtml(h, SANITIZE_OPTIONS)).toBe(h);
  expect(h).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|img|form)\b/i);
  expect(h).not.toMatch(/\son[a-z]+\s*=/i);
  expect(h).not.toMatch(/(?:java|vb)script:|data:/i);
}

const saosJudgment = JSON.parse(readFileSync(path.join(FIX, "saos/api-judgments-227221.date-2016-04-14.json"), "utf8")) as { data: Record<string, unknown> };
const fclXml = readFileSync(path.join(FIX, "uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml"), "utf8");
const juddgesRow = JSON.parse(readFileSync(path.join(FIX, "juddges/pl-court-raw.row-v1.154505000005127_XVII_AmA_000014_1994_Uz_1994-07-20_001.json"), "utf8")) as Record<string, unknown>;

describe("sanitiseMarkup writes what sanitize-html writes", () => {
  it("on the samples: SAOS textContent, Portal Orzeczeń and LegalDocML XML as rendered", () => {
    expectSameAsSanitizeHtml(saosJudgment.data.textContent as string);
    expectSameAsSanitizeHtml(renderPortalXml(xmlStringTree(juddgesRow.content as string)));
    const akn = xmlStringTree(fclXml, { skip: new Set(["presentation", "style"]) }).children.find(isEl) as XmlElement;
    const doc = akn.children.find((c): c is XmlElement => isEl(c) && c.name === "judgment") as XmlElement;
    expectSameAsSanitizeHtml(renderAkn(doc, []));
  });

  it("on markup the parser reads in its own way", () => {
    for (const m of [
      "a</>b<p>c", "<p>a<p>b", "<p><div>x</div></p>", "</p>", "</br>x", "<BR>", "<P CLASS=anon>x</P>", "<p>x<hr>y", "<div>x<div",
      "<a href='javascript:x'>y</a>", "<a href=' http://x'>y</a>", "<a rel=x href=http://a title=''>x</a>", "<a href=\"java&#x09;script:x\">y</a>",
      "<span class=' anon  foo num'>x</span>", "<p data-num>x</p>", "x &amp; &lt; &nbsp; &copy &#39; &#x41; &bogus; &amp", "<a title='&quot;&amp;x'>a</a>",
      "<!-->x", "<!--->x", "<!-- a -->b", "<!x>y>z", "<!-x>y>z", "<![CDATA[x]]>y", "<?php x ?>y", "<title>a<b>&amp;</title>c", "<textarea>a<b></textarea>c",
      "<option>a<p>b</p></option>c", "<svg><p/>x</svg>y", "<table><tr><td>a<td>b<tr><td>c</table>", "<ul><li>a<li>b</ul>", "<p a='x", "a < b > c", "<<p>>",
      "</ p>x", "</1>x", "</1x", "<!x", "<!-", "<", "<p =x>a</p>", "<p/ class=anon>x</p>", "<b>x<i>y</b>z</i>", "<script>alert(1)</script>x", "<svg/onload=alert(1)>",
    ]) expectSameAsSanitizeHtml(m);
  });

  it("on generated markup (property)", () => {
    const pieces = [
      "<p>", "</p>", "<div>", "</div>", '<span class="anon">', "</span>", '<a href="http://x?a=1&amp;b=2" title="t">', "</a>", "<br>", "<br/>", "</br>", "<h2>", "</h2>",
      "<h1>", "</h1>", "<li>", "</li>", "<ul>", "</ul>", "<table>", "<tr>", "<td colspan=2>", "</td>", "</tr>", "</table>", "text ", " & ", "&amp;", "&nbsp;", "&lt;",
      "<", ">", "\n", "<!-- c -->", "<b>", "</b>", "<font>", "</font>", "<hr>", "<img src=x onerror=y>", "<option>", "</option>", "<title>", "</title>", "<svg>", "</svg>",
      "<p/>", "<section>", "</section>", "<blockquote>", "</blockquote>", "ą ę", "'", '"', "<th>", "<thead>", "<tbody>", "</tbody>", "<a href=javascript:x>",
      '<p class="para quote x" data-num="1" data-eid="e" onclick="x()">', "<em>", "</em>", "<!x>", "</ p>", "<?x?>", "<script>", "</script>", "<style>",
    ];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 1500; k++) {
      let m = "";
      for (let n = 1 + Math.floor(rnd() * 20); n > 0; n--) m += pieces[Math.floor(rnd() * pieces.length)];
      expectSameAsSanitizeHtml(m);
      expectOnlyAllowlisted(sanitiseMarkup(m).html);
    }
  });
});

describe("no script, handler or javascript: link survives from any source", () => {
  it("SAOS: refused when the markup carries one, cut when it is disguised", async () => {
    const judgment = (id: number, textContent: string) => JSON.stringify({ ...saosJudgment.data, id, textContent });
    const items = await read(readSaos, "saos.jsonl", [
      judgment(1, "<p>a</p><script>alert(1)</script>"),
      judgment(2, '<p onclick="alert(1)">a</p>'),
      judgment(3, '<p><a href="javascript:alert(1)">a</a></p>'),
      judgment(4, '<p>a<svg/onload=alert(1)></svg><a href="jav&#x09;ascript:alert(1)">b</a><a href="java\nscript:x">c</a><p/onmouseover=alert(1)>d</p>'),
      judgment(5, '<p>x</p><img src=x:y/onerror=alert(1)><a href="data&colon;text/html,x">e</a>'),
      judgment(6, '<p>x</p><iframe src="http://x"></iframe>'),
    ].join("\n"));
    expect(items.map((i) => i.kind)).toEqual(["rejected", "rejected", "rejected", "record", "record", "rejected"]);
    const kept = items[3];
    if (kept.kind !== "record") throw new Error("not a record");
    expectInert(kept.record.full_html);
    expect(kept.record.full_html).toBe("<p>a<a rel=\"noopener noreferrer nofollow\">b</a><a rel=\"noopener noreferrer nofollow\">c</a></p><p>d</p>");
    expect(kept.record.full_text).toBe("abc\n\nd");
    const other = items[4];
    if (other.kind !== "record") throw new Error("not a record");
    expectInert(other.record.full_html);
    expect(other.record.full_html).toBe('<p>x</p><a rel="noopener noreferrer nofollow">e</a>');
  });

  it("Find Case Law: markup inside the LegalDocML body is rendered as text or dropped", async () => {
    const xml = fclXml.replace(
      "<judgmentBody>",
      '<judgmentBody><paragraph eId="x" onclick="alert(1)"><content><p style="x" onmouseover="alert(1)">Hostile <script>alert(1)</script> ' +
        '<ref href="javascript:alert(1)" uk:type="case" uk:canonical="[2020] EWCA Civ 1">R v X</ref> <a href="javascript:alert(2)">link</a> ' +
        '<img src="x" onerror="alert(3)"/><span onclick="alert(4)">s</span></p></content></paragraph>',
    );
    const [item] = await read(readFcl, "fcl.xml", xml);
    if (item.kind !== "record") throw new Error(JSON.stringify(item));
    expectInert(item.record.full_html);
    expect(item.record.full_text).toContain("Hostile alert(1) R v X link s");
  });

  it("JuDDGES: Portal Orzeczeń XML markup is rendered as text or dropped", async () => {
    const content = (juddgesRow.content as string).replace(
      "<xText>Sygn. akt. XVII Amr 14/94</xText>",
      '<xText onclick="alert(1)">Sygn. akt. XVII Amr 14/94 <script>alert(1)</script><a href="javascript:alert(2)">l</a><xAnon style="x">J. K.</xAnon></xText>',
    );
    const [item] = await read(readJuddges, "juddges.jsonl", JSON.stringify({ ...juddgesRow, content, text: undefined }));
    if (item.kind !== "record") throw new Error(JSON.stringify(item));
    expectInert(item.record.full_html);
    expect(item.record.full_html).toContain('Sygn. akt. XVII Amr 14/94 alert(1)l<span class="anon">J. K.</span>');
    expect(item.record.full_text).toContain("Sygn. akt. XVII Amr 14/94 alert(1)lJ. K.");
  });
});
