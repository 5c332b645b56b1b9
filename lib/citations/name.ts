/**
 * A provision's name as a lawyer writes it, from its canonical id: `PL/kk/279/§1` → "art. 279 § 1 k.k.",
 * `UK/ukpga/1861/100/s18/1` → "s. 18(1) Offences Against the Person Act 1861", `UK/guideline/robbery` →
 * "Sentencing Council guideline: Robbery". Provision pages, the legislation lookup and search answers show it.
 */
import { plActById, ukActByChapter } from "./acts";

const SUPERSCRIPT: Record<string, string> = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹" };

/** "353^1" → "353¹" (an article added between two others). */
const unit = (s: string) => s.replace(/\^(\d+)/g, (_, d: string) => [...d].map((c) => SUPERSCRIPT[c] ?? c).join(""));

/** "kk" → "k.k.", "kpk" → "k.p.k." (the codes' abbreviations, as judgments print them). */
const dotted = (abbr: string) => [...abbr].map((c) => `${c}.`).join("");

/** A slug's words with capitals: "fraud-act" → "Fraud Act"; "of", "the", "and" stay small. */
function titleOf(slug: string): string {
  return slug
    .split("-")
    .map((w, i) => (i > 0 && ["of", "the", "and", "for", "in", "on", "to"].includes(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}

function plName(parts: string[]): string {
  const [, actId, article, ...levels] = parts;
  const act = plActById(actId);
  let actName: string;
  if (act) actName = act.abbreviations[0] && act.abbreviations[0].length <= 4 ? dotted(act.abbreviations[0]) : act.name;
  else if (/^du-\d{4}-/.test(actId)) {
    const [, year, nr, poz] = /^du-(\d{4})-(?:(\d+)-)?(\d+)$/.exec(actId) ?? [];
    actName = year ? `Dz. U. z ${year} r.${nr ? ` Nr ${nr}` : ""} poz. ${poz}` : actId;
  } else actName = `ustawy ${actId.replace(/^u-/, "").replace(/-/g, " ")}`;
  if (!article) return act ? act.name : actName;
  const tail = levels
    .map((l) => {
      const m = /^(§|ust|pkt|lit)(.+)$/.exec(l);
      if (!m) return l;
      return m[1] === "§" ? `§ ${unit(m[2])}` : `${m[1]}${m[1] === "ust" || m[1] === "lit" ? "." : ""} ${unit(m[2])}`;
    })
    .join(" ");
  return `art. ${unit(article)}${tail ? ` ${tail}` : ""} ${actName}`;
}

function ukName(parts: string[]): string {
  let actName: string;
  let rest: string[];
  if (parts[1] === "ukpga") {
    const year = Number(parts[2]);
    const chapter = Number(parts[3]);
    const act = ukActByChapter(year, chapter);
    actName = act ? `${act.title} ${act.year}` : `${year} c. ${chapter}`;
    rest = parts.slice(4);
  } else if (parts[1] === "act") {
    actName = titleOf(parts[2]).replace(/ (\d{4})$/, " $1");
    rest = parts.slice(3);
  } else if (parts[1] === "guideline") {
    return `Sentencing Council guideline: ${titleOf(parts.slice(2).join("-"))}`;
  } else return parts.join("/");
  if (rest.length === 0) return actName;
  const [section, ...subs] = rest;
  return `s. ${section.replace(/^s/, "")}${subs.map((x) => `(${x})`).join("")} ${actName}`;
}

export function provisionName(id: string): string {
  const parts = id.split("/");
  if (parts[0] === "PL" && parts.length >= 2) return plName(parts);
  if (parts[0] === "UK" && parts.length >= 3) return ukName(parts);
  return id;
}
