/**
 * Highlights of a judgment found by several of an OR query's searches (search.ts `searchExpanded`): Meilisearch marks
 * only the words of the query it was given, so the hit kept (the best-scoring search's) would show one alternative's
 * marks. The words the other searches marked in the same judgment (their `<mark>` texts, as Meilisearch matched them:
 * folded, typo and prefix forms included) are marked in the kept hit's `_formatted` too, where they occur in it. The
 * crop stays the kept search's (Meilisearch chose it around that alternative's words).
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import { keepsMark } from "../text/markable";
import { fold } from "../text/tokenize";
import type { Raw } from "./connection";

const MARKED = /<mark>([^<]*)<\/mark>([\p{L}\p{N}]?)/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** Marked word → whether it was a prefix (the mark ended inside a word), from every string of a `_formatted`. */
function markedForms(formatted: unknown, into: Map<string, boolean>): void {
  const visit = (v: unknown) => {
    if (typeof v === "string") {
      for (const m of v.matchAll(MARKED)) {
        const parts = m[1].match(WORD) ?? [];
        parts.forEach((w, i) => {
          const f = fold(w);
          if (!keepsMark(w)) return;
          // Only the mark's last word can be a prefix of a longer word.
          const prefix = i === parts.length - 1 && m[2] !== "";
          into.set(f, (into.get(f) ?? false) || prefix);
        });
      }
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(formatted);
}

/** `text` (engine output, marks as tags) with the unmarked occurrences of `forms` marked. */
function markForms(text: string, forms: Map<string, boolean>): string {
  const parts = text.split(/(<mark>[^<]*<\/mark>)/);
  return parts
    .map((part) => {
      if (part.startsWith(HIGHLIGHT_PRE_TAG)) return part;
      return part.replace(WORD, (w) => {
        const f = fold(w);
        if (forms.has(f)) return `${HIGHLIGHT_PRE_TAG}${w}${HIGHLIGHT_POST_TAG}`;
        for (const [form, prefix] of forms) {
          // fold() keeps the length of the scripts indexed here (it drops diacritics and lowercases).
          if (prefix && f.length > form.length && f.startsWith(form)) {
            return `${HIGHLIGHT_PRE_TAG}${w.slice(0, form.length)}${HIGHLIGHT_POST_TAG}${w.slice(form.length)}`;
          }
        }
        return w;
      });
    })
    .join("");
}

/** `kept` with the words `others` marked also marked in its `_formatted` (a new object; `kept` is not changed). */
export function mergeMarks(kept: Raw, others: readonly Raw[]): Raw {
  const f = kept._formatted as Raw | undefined;
  if (!f || others.length === 0) return kept;
  const forms = new Map<string, boolean>();
  for (const o of others) markedForms(o._formatted, forms);
  if (forms.size === 0) return kept;
  const out: Raw = {};
  for (const [k, v] of Object.entries(f)) {
    if (typeof v === "string") out[k] = markForms(v, forms);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[k] = (v as string[]).map((x) => markForms(x, forms));
    else out[k] = v;
  }
  return { ...kept, _formatted: out };
}
