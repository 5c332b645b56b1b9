/**
 * Proper names of the live index (../text/proper-names.ts has the rule): a query word gets no typo expansion to them
 * (docs/search.md "Query language"): `robery` is one typo from both "robbery" and "Robert", and the name must not
 * outrank the offence. Read from the stored fields once per main segment; the delta's few documents are not read.
 */
import { ProperNameCollector } from "../text/proper-names";
import type { KeywordSegment } from "./keyword-segment";
import type { LiveIndex } from "./live-index";

const computed = new WeakMap<KeywordSegment, ReadonlySet<string>>();

/** The proper names of the live main segment's documents (an empty set before any is built). */
export function properNames(live: LiveIndex): ReadonlySet<string> {
  const main = live.main;
  if (!main) return new Set();
  const hit = computed.get(main);
  if (hit) return hit;
  const collector = new ProperNameCollector();
  for (const id of main.ids) {
    const doc = live.docs.get(id);
    if (doc) collector.add(doc);
  }
  const names = collector.names();
  computed.set(main, names);
  return names;
}
