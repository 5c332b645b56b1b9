/**
 * How deeply a JSON text nests, found by one scan of its characters (strings skipped, escapes honoured) without
 * parsing it: V8's JSON.parse accepts very deep input, but JSON.stringify, zod and recursive walks then overflow the
 * stack (security review L1). Callers refuse a text deeper than MAX_JSON_DEPTH before parsing it.
 */
export const MAX_JSON_DEPTH = 32;

/** True when `text` opens more than `maxDepth` arrays/objects inside each other. Stops scanning as soon as it is. */
export function jsonDepthExceeds(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
