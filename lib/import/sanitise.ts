/**
 * The importers' HTML sanitiser: the page's allowlist (SANITIZE_OPTIONS in ./common: tags, attributes, classes,
 * http(s) links) applied in one pass that also yields the plain text, for source markup (SAOS `textContent`) and for
 * the HTML our renderers build from XML (Find Case Law, Portal Orzeczeń) alike.
 *
 * Why not sanitize-html here: it was 30-40% of the importer's CPU per judgment (its character-by-character
 * tokenizer over ~35-80 kB of markup), and the plain text was then read back out of its output by a second pass.
 * This module reproduces sanitize-html 2.17's output for our options (htmlparser2's tokenizer and its implied-close
 * rules, entity decoding, attribute filtering and serialisation), so the stored HTML is what sanitize-html would
 * store (tests/unit/import-sanitise.test.ts compares the two on the samples and on generated markup), and the
 * document page still runs sanitize-html over it when serving (lib/backend/documents.ts).
 *
 * Safety does not rest on parsing like a browser: the output is written from scratch, every tag from the allowlist,
 * every attribute name from the allowlist with its value re-escaped, every text escaped (`&`, `<`, `>`), so nothing
 * the input holds reaches the output as markup unless the allowlist names it.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";

/**
 * The page's allowlist (SANITIZE_OPTIONS in ./common is built from it): structure and emphasis, paragraph numbers as
 * data attributes, anonymisation and reference classes, links only http(s) and always `rel="noopener noreferrer
 * nofollow"`.
 */
export const ALLOWLIST = {
  tags: [
    "p", "br", "h2", "h3", "h4", "h5", "h6", "strong", "b", "em", "i", "u", "sup", "sub", "blockquote",
    "ol", "ul", "li", "table", "thead", "tbody", "tr", "td", "th", "span", "div", "section", "a",
  ],
  attributes: {
    "*": ["data-num", "data-eid", "data-ref-type", "class"],
    a: ["href", "title", "rel"],
    td: ["colspan", "rowspan"],
    th: ["colspan", "rowspan"],
  } as Record<string, string[]>,
  classes: ["anon", "num", "judgment-heading", "ref", "para", "quote"],
  schemes: ["http", "https"],
  linkRel: "noopener noreferrer nofollow",
} as const;

const ALLOWED_TAGS = new Set<string>(ALLOWLIST.tags);
const GLOBAL_ATTRIBUTES = new Set(ALLOWLIST.attributes["*"]);
const TAG_ATTRIBUTES: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries(ALLOWLIST.attributes)
    .filter(([tag]) => tag !== "*")
    .map(([tag, names]) => [tag, new Set(names)]),
);
const ALLOWED_CLASSES = new Set<string>(ALLOWLIST.classes);
const ALLOWED_SCHEMES = new Set<string>(ALLOWLIST.schemes);
/** Attributes sanitize-html drops when empty (its `nonBooleanAttributes`, the ones of our allowlist). */
const NON_BOOLEAN = new Set(["class", "href", "title", "rel", "colspan", "rowspan"]);

/** Tags whose content is dropped with them (sanitize-html's `nonTextTags`). */
const NON_TEXT = new Set(["script", "style", "textarea", "option", "xmp"]);
/** Raw-text elements of the tokenizer: their content is text up to the matching end tag (`title`: entities decoded). */
const RAW_TEXT_END: Record<string, RegExp> = {
  script: /<\/script[\t\n\f\r >]/gi,
  style: /<\/style[\t\n\f\r >]/gi,
  title: /<\/title[\t\n\f\r >]/gi,
  textarea: /<\/textarea[\t\n\f\r >]/gi,
  xmp: /<\/xmp[\t\n\f\r >]/gi,
};

// htmlparser2 (the parser under sanitize-html): elements an opening tag closes when they are the innermost open one.
const P = new Set(["p"]);
const FORM = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const OPEN_IMPLIES_CLOSE: Record<string, ReadonlySet<string>> = {
  tr: new Set(["tr", "th", "td"]),
  th: new Set(["th"]),
  td: new Set(["thead", "th", "td"]),
  body: new Set(["head", "link", "script"]),
  li: new Set(["li"]),
  select: FORM,
  input: FORM,
  output: FORM,
  button: FORM,
  datalist: FORM,
  textarea: FORM,
  option: new Set(["option"]),
  optgroup: new Set(["optgroup", "option"]),
  dd: new Set(["dd", "dt"]),
  dt: new Set(["dd", "dt"]),
  rt: new Set(["rt", "rp"]),
  rp: new Set(["rt", "rp"]),
  tbody: new Set(["thead", "tbody"]),
  tfoot: new Set(["thead", "tbody"]),
};
for (const t of ["p", "h1", "h2", "h3", "h4", "h5", "h6", "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "header", "hr", "main", "nav", "ol", "pre", "section", "table", "ul"]) OPEN_IMPLIES_CLOSE[t] = P;
const VOID = new Set(["area", "base", "basefont", "br", "col", "command", "embed", "frame", "hr", "img", "input", "isindex", "keygen", "link", "meta", "param", "source", "track", "wbr"]);
const FOREIGN = new Set(["math", "svg"]);
const INTEGRATION = new Set(["mi", "mo", "mn", "ms", "mtext", "annotation-xml", "foreignobject", "desc", "title"]);
/** Elements whose tags start and end a paragraph of the plain text (htmlToText's BLOCK, as emitted here). */
const TEXT_BLOCK = new Set(["p", "div", "h2", "h3", "h4", "h5", "h6", "li", "tr", "table", "blockquote", "section", "ol", "ul"]);

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
const isAlpha = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;

function escapeText(s: string): string {
  return /[&<>]/.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;") : s;
}
function escapeAttr(s: string): string {
  return /[&<>"]/.test(s) ? s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;") : s;
}

/** sanitize-html's (launder's) test: a scheme outside the allowlist, once control characters and spaces are removed. */
function badHref(href: string): boolean {
  let h = href.replace(/[\x00-\x20]+/g, "");
  for (;;) {
    const a = h.indexOf("<!--");
    if (a < 0) break;
    const b = h.indexOf("-->", a + 4);
    if (b < 0) break;
    h = h.slice(0, a) + h.slice(b + 3);
  }
  const m = /^([a-zA-Z][a-zA-Z0-9.\-+]*):/.exec(h);
  if (!m) return false;
  return !ALLOWED_SCHEMES.has(m[1].toLowerCase());
}

/** The serialised attributes an allowed tag keeps, in the order the source gives them (the first of a repeated one). */
function attributes(tag: string, attrs: Map<string, string> | null): string {
  if (tag === "a") {
    attrs ??= new Map();
    attrs.set("rel", ALLOWLIST.linkRel);
  }
  if (!attrs) return "";
  const own = TAG_ATTRIBUTES[tag];
  let out = "";
  for (const [name, raw] of attrs) {
    if (!GLOBAL_ATTRIBUTES.has(name) && !own?.has(name)) continue;
    let value = raw;
    if (value === "" && NON_BOOLEAN.has(name)) continue;
    if (name === "href" && badHref(value)) continue;
    if (name === "class") {
      value = value
        .split(/\s+/)
        .filter((c) => ALLOWED_CLASSES.has(c))
        .join(" ");
      if (!value) continue;
    }
    out += value ? ` ${name}="${escapeAttr(value)}"` : ` ${name}`;
  }
  return out;
}

interface Open {
  name: string;
  /** Written to the output (allowed, and not inside a dropped element's content). */
  emitted: boolean;
  /** Inside (or the start of) an element whose content is dropped. */
  silent: boolean;
}

export interface SanitisedMarkup {
  html: string;
  /** Blocks separated by blank lines, tags gone, entities decoded: htmlToText of `html`. */
  text: string;
}

/** The allowlisted HTML of any markup, and its plain text. Never throws; malformed markup is read as HTML parsers do. */
export function sanitiseMarkup(src: string): SanitisedMarkup {
  // Pieces joined once at the end: a string built by `+=` is a rope of every piece until something flattens it, and
  // a batch holds a few hundred of these documents before its statement is serialised.
  const html: string[] = [];
  let text = "";
  const stack: Open[] = []; // innermost last
  const foreign: boolean[] = [false]; // innermost last
  let silent = 0; // open elements whose content is dropped

  const emitText = (raw: string, decode: boolean) => {
    if (silent || !raw) return;
    const t = decode && raw.includes("&") ? decodeHTML(raw) : raw;
    html.push(escapeText(t));
    text += t;
  };
  const close = (o: Open) => {
    if (o.silent) silent--;
    if (o.emitted) {
      html.push(`</${o.name}>`);
      if (TEXT_BLOCK.has(o.name)) text += "\n\n";
    }
  };
  /** The parser's part of an opening tag, at the end of its name: implied closes, then the element goes on the stack. */
  const openName = (name: string) => {
    const implied = OPEN_IMPLIES_CLOSE[name];
    if (implied) while (stack.length && implied.has(stack[stack.length - 1].name)) close(stack.pop() as Open);
    if (VOID.has(name)) return;
    const drop = silent > 0 || NON_TEXT.has(name);
    const o: Open = { name, emitted: false, silent: drop };
    if (drop) silent++;
    stack.push(o);
    if (FOREIGN.has(name)) foreign.push(true);
    else if (INTEGRATION.has(name)) foreign.push(false);
  };
  /** The sanitiser's part, at the tag's `>`: write it when allowed. */
  const openTag = (name: string, attrs: Map<string, string> | null) => {
    if (VOID.has(name)) {
      if (name === "br" && !silent) {
        html.push("<br />");
        text += "\n\n";
      }
      return;
    }
    const o = stack[stack.length - 1];
    if (!o || o.name !== name || o.silent || !ALLOWED_TAGS.has(name)) return;
    o.emitted = true;
    html.push(`<${name}${attributes(name, attrs)}>`);
    if (TEXT_BLOCK.has(name)) text += "\n\n";
  };
  const closeTag = (name: string) => {
    if (FOREIGN.has(name) || INTEGRATION.has(name)) {
      if (foreign.length > 1) foreign.pop();
    }
    if (VOID.has(name)) {
      if (name === "br") openTag("br", null);
      return;
    }
    let at = -1;
    for (let k = stack.length - 1; k >= 0; k--) {
      if (stack[k].name === name) {
        at = k;
        break;
      }
    }
    if (at >= 0) {
      while (stack.length > at) close(stack.pop() as Open);
    } else if (name === "p") {
      openName("p");
      openTag("p", null);
      const top = stack[stack.length - 1];
      if (top?.name === "p") close(stack.pop() as Open);
    }
  };

  const n = src.length;
  let textStart = 0; // start of the text not yet written
  let i = 0;
  scan: while (i < n) {
    const lt = src.indexOf("<", i);
    if (lt < 0) break;
    const c = src.charCodeAt(lt + 1);
    if (isAlpha(c)) {
      // An opening tag: its name, then attributes up to ">".
      let j = lt + 1;
      while (j < n) {
        const d = src.charCodeAt(j);
        if (isSpace(d) || d === 47 || d === 62) break;
        j++;
      }
      emitText(src.slice(textStart, lt), true);
      if (j >= n) {
        textStart = n; // a tag cut by the end of the input is dropped with it
        break;
      }
      const name = src.slice(lt + 1, j).toLowerCase();
      openName(name);
      let attrs: Map<string, string> | null = null;
      let selfClosing = false;
      for (;;) {
        if (j >= n) {
          textStart = n;
          break scan;
        }
        const d = src.charCodeAt(j);
        if (d === 62) {
          j++;
          break;
        }
        if (isSpace(d)) {
          j++;
          continue;
        }
        if (d === 47) {
          j++;
          while (j < n && isSpace(src.charCodeAt(j))) j++;
          if (src.charCodeAt(j) === 62) {
            selfClosing = true;
            j++;
            break;
          }
          continue;
        }
        // An attribute name (its first character may be anything but space, "/" or ">", "=" included).
        let k = j + 1;
        while (k < n) {
          const e = src.charCodeAt(k);
          if (e === 61 || isSpace(e) || e === 47 || e === 62) break;
          k++;
        }
        const attr = src.slice(j, k).toLowerCase();
        while (k < n && isSpace(src.charCodeAt(k))) k++;
        if (k >= n) {
          textStart = n;
          break scan;
        }
        let value = "";
        if (src.charCodeAt(k) === 61) {
          k++;
          while (k < n && isSpace(src.charCodeAt(k))) k++;
          if (k >= n) {
            textStart = n;
            break scan;
          }
          const q = src.charCodeAt(k);
          if (q === 34 || q === 39) {
            const end = src.indexOf(q === 34 ? '"' : "'", k + 1);
            if (end < 0) {
              textStart = n;
              break scan;
            }
            value = src.slice(k + 1, end);
            k = end + 1;
          } else {
            let end = k;
            while (end < n) {
              const e = src.charCodeAt(end);
              if (isSpace(e) || e === 62) break;
              end++;
            }
            if (end >= n) {
              textStart = n;
              break scan;
            }
            value = src.slice(k, end);
            k = end;
          }
          if (value.includes("&")) value = decodeHTMLAttribute(value);
        }
        attrs ??= new Map();
        if (!attrs.has(attr)) attrs.set(attr, value);
        j = k;
      }
      if (selfClosing && foreign[foreign.length - 1]) {
        openTag(name, attrs);
        if (!VOID.has(name) && stack[stack.length - 1]?.name === name) close(stack.pop() as Open);
        i = textStart = j;
        continue;
      }
      openTag(name, attrs);
      const rawEnd = selfClosing ? undefined : RAW_TEXT_END[name];
      if (rawEnd) {
        // Raw text up to the end tag (or the end of the input); only <title> decodes entities.
        rawEnd.lastIndex = j;
        const m = rawEnd.exec(src);
        const stop = m ? m.index : n;
        emitText(src.slice(j, stop), name === "title");
        if (!m) {
          textStart = n;
          break;
        }
        closeTag(name);
        const gt = src.indexOf(">", stop + 2 + name.length);
        i = textStart = gt < 0 ? n : gt + 1;
        continue;
      }
      i = textStart = j;
      continue;
    }
    if (c === 47) {
      // A closing tag: "</", optional spaces, a name, anything up to ">".
      let j = lt + 2;
      while (j < n && isSpace(src.charCodeAt(j))) j++;
      if (j >= n) {
        // "</" at the end of the input is text.
        break;
      }
      const d = src.charCodeAt(j);
      if (d === 62) {
        // "</>" is dropped, but the parser keeps it in the text that follows.
        i = j + 1;
        continue;
      }
      emitText(src.slice(textStart, lt), true);
      if (!isAlpha(d)) {
        // A bogus comment up to ">"; without one, the rest is text.
        const gt = src.indexOf(">", j);
        if (gt < 0) {
          textStart = j;
          break;
        }
        i = textStart = gt + 1;
        continue;
      }
      let k = j + 1;
      while (k < n) {
        const e = src.charCodeAt(k);
        if (e === 62 || isSpace(e)) break;
        k++;
      }
      if (k >= n) {
        textStart = n;
        break;
      }
      closeTag(src.slice(j, k).toLowerCase());
      const gt = src.indexOf(">", k);
      i = textStart = gt < 0 ? n : gt + 1;
      continue;
    }
    if (c === 33 || c === 63) {
      // Comments, CDATA (a comment in HTML), declarations and processing instructions: dropped.
      emitText(src.slice(textStart, lt), true);
      let end: number;
      if (c === 33 && src.startsWith("--", lt + 2)) {
        end = src.indexOf("-->", lt + 2);
        end = end < 0 ? n : end + 3;
      } else if (c === 33 && src.startsWith("[CDATA[", lt + 2)) {
        end = src.indexOf("]]>", lt + 9);
        end = end < 0 ? n : end + 3;
      } else {
        // The tokenizer reads the character after "<!" (and after "<!-") before it looks for ">": "<!>x>" ends at the second.
        const from = c === 63 ? lt + 2 : src.charCodeAt(lt + 2) === 45 ? lt + 4 : lt + 3;
        const gt = src.indexOf(">", from);
        if (gt < 0) {
          // Unterminated: the parser gives what follows "<!" or "<?" as text.
          textStart = lt + 2;
          break;
        }
        end = gt + 1;
      }
      i = textStart = end;
      continue;
    }
    // "<" that starts no tag is text.
    i = lt + 1;
  }
  emitText(src.slice(textStart), true);
  while (stack.length) close(stack.pop() as Open);
  return { html: html.join(""), text: paragraphs(text) };
}

/**
 * Runs of spaces, tabs, line breaks and no-break spaces that are not already one plain space: a lone space between
 * two words is most of a text's matches of `[ \t\r\n\u00a0]+`, and replacing it by itself cost most of the time.
 */
const SPACES = /[\t\r\n\u00a0][ \t\r\n\u00a0]*| [ \t\r\n\u00a0]+/g;

/** Blank-line-separated paragraphs of text with tags already gone: spaces collapsed, empty ones dropped. */
export function paragraphs(text: string): string {
  let out = "";
  for (const part of text.split(/\n\s*\n/)) {
    const p = part.replace(SPACES, " ").trim();
    if (p) out = out ? `${out}\n\n${p}` : p;
  }
  return out;
}
