/**
 * lib/import/stream.ts jsonValues: the scanner that cuts records out of SAOS pages, arrays and JSON Lines must give
 * exactly what JSON.parse gives, wherever the read chunks split the text (strings with escaped quotes, backslashes,
 * brackets and multi-byte characters across a boundary), and name truncation and bad values by position.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonValues, MalformedFileError, type JsonLayout } from "@/lib/import/stream";

const dir = mkdtempSync(path.join(tmpdir(), "json-stream-"));
let n = 0;
function file(text: string): string {
  const f = path.join(dir, `f${n++}.json`);
  writeFileSync(f, text);
  return f;
}

async function values(text: string, layout: JsonLayout, chunkSize?: number) {
  const out: { value: unknown; line: number }[] = [];
  for await (const v of jsonValues(file(text), layout, undefined, chunkSize)) out.push(v);
  return out;
}

const tricky = { id: 1, text: 'a "quoted" \\ back\\\\slash } ] { [ , : ąę€😀\n', nested: { a: [1, { b: "}" }] }, n: -1.5e3, t: true, z: null };

describe("jsonValues", () => {
  it("envelope: items[] and data, whatever the key order and the envelope's other members", async () => {
    const page = JSON.stringify({ links: [{ rel: "next", href: "x" }], items: [tricky, { id: 2 }], queryTemplate: { items: [9] }, info: {} });
    expect((await values(page, "envelope")).map((v) => v.value)).toEqual([tricky, { id: 2 }]);
    const single = JSON.stringify({ links: [], data: tricky });
    expect((await values(single, "envelope")).map((v) => v.value)).toEqual([tricky]);
  });

  it("array and JSON Lines (with their line numbers)", async () => {
    expect((await values(JSON.stringify([tricky, tricky]), "array")).map((v) => v.value)).toEqual([tricky, tricky]);
    const lines = `${JSON.stringify(tricky)}\n\n${JSON.stringify({ id: 2 })}\n`;
    expect(await values(lines, "values")).toEqual([
      { value: tricky, line: 1 },
      { value: { id: 2 }, line: 3 },
    ]);
  });

  it("escapes, brackets in strings and multi-byte characters split across every chunk boundary", async () => {
    const page = JSON.stringify({ links: [], items: [tricky, tricky] });
    for (let chunk = 1; chunk <= 9; chunk++) expect((await values(page, "envelope", chunk)).map((v) => v.value)).toEqual([tricky, tricky]);
  });

  it("gives JSON.parse's values for any chunk size (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.object(), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (items, chunk) => {
        const page = JSON.stringify({ links: [], items, info: { totalResults: items.length } });
        const got = (await values(page, "envelope", chunk)).map((v) => v.value);
        expect(got).toEqual(JSON.parse(page).items);
      }),
      { numRuns: 60 },
    );
  });

  it("a truncated file: the whole values before the cut, then an error naming the end of the file", async () => {
    const page = JSON.stringify({ links: [], items: [{ id: 1 }, { id: 2, text: "cut here" }] });
    const cut = page.slice(0, page.indexOf("cut") + 3);
    const got: unknown[] = [];
    const run = async () => {
      for await (const v of jsonValues(file(cut), "envelope")) got.push(v.value);
    };
    await expect(run()).rejects.toThrow(/malformed JSON at end of file \(byte \d+\), truncated/);
    expect(got).toEqual([{ id: 1 }]);
  });

  it("a bad value is named by its character position; a broken envelope is named too", async () => {
    const bad = '[{"id":1},{"id":2,,"x":1}]';
    await expect(values(bad, "array")).rejects.toThrow(MalformedFileError);
    await expect(values(bad, "array")).rejects.toThrow(/malformed JSON at character \d+/);
    await expect(values('{"links":[} "items":[{"id":1}]}', "envelope")).rejects.toThrow(/malformed JSON/);
  });
});
