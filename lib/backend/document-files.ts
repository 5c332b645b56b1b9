/**
 * Reading a judgment outside its page: the permalink by citation (/cite/<neutral citation or case number>) and the
 * downloads (GET /api/documents/{id}/download?format=html|txt). Both read through the caller's own identity, so they
 * show exactly what the judgment page shows that caller (judgment_detail decides visibility).
 */
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { escapeHtml } from "@/lib/text/html";
import { stripDiacritics } from "@/lib/text/fold";
import type { DbClient } from "@/lib/supabase/db-client";
import { documentDetail, documentPage } from "./documents";
import type { Identity } from "./identity";

/** Whitespace collapsed, trimmed: "II  AKa 516/19 " → "II AKa 516/19". */
export function normaliseCitation(ref: string): string {
  return ref.replace(/\s+/g, " ").trim();
}

export type CitationTarget = { kind: "one"; id: string } | { kind: "many" } | { kind: "none" };

/**
 * The judgment a neutral citation ("[2015] EWCA Crim 1390") or a case number ("II AKa 516/19") names, compared
 * case-insensitively with whitespace collapsed (judgment_ids_by_citation). The lookup runs with the service client (guests cannot read the table)
 * and the hit is then read as the caller, so a judgment the caller cannot see is "none", never a leaked id. A case
 * number shared by several judgments (different courts) is "many": the caller is sent to search.
 */
export async function citationTarget(rawRef: string, identity: Identity, serviceDb: () => DbClient): Promise<CitationTarget> {
  const ref = normaliseCitation(rawRef);
  // No citation holds control characters or broken UTF-16 (and Postgres text cannot hold a NUL): nothing to look up.
  if (!ref || ref.length > 200 || /[\u0000-\u001f\u007f]/.test(ref) || !ref.isWellFormed()) return { kind: "none" };
  const { data, error } = await serviceDb().rpc("judgment_ids_by_citation", { p_ref: ref });
  if (error) throw new Error(`citation lookup failed: ${error.message}`);
  const ids = (data ?? []) as string[];
  if (ids.length === 0) return { kind: "none" };
  if (ids.length > 1) return { kind: "many" };
  try {
    await documentDetail(ids[0], identity);
    return { kind: "one", id: ids[0] };
  } catch (e) {
    if (e instanceof ApiError && e.code === "DOCUMENT_NOT_FOUND") return { kind: "none" };
    throw e;
  }
}

export const DownloadQuery = z.object({ format: z.enum(["html", "txt"]).default("html") });

/** A file name from the case number (ASCII letters, digits, dashes), else the id. */
export function downloadName(caseNumber: unknown, id: string, ext: string): string {
  const base = typeof caseNumber === "string" ? stripDiacritics(caseNumber).replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) : "";
  return `${base || id}.${ext}`;
}

const line = (label: string, v: unknown) => (typeof v === "string" && v.trim() ? `${label}: ${v.trim()}` : null);

function headerLines(d: Record<string, unknown>): string[] {
  return [
    line("Case number", d.case_number),
    line("Neutral citation", d.base_neutral_citation_number),
    line("Court", d.court_name),
    line("Date", d.decision_date),
    line("Source", d.source_url),
  ].filter((l): l is string => l !== null);
}

/**
 * The judgment as a file: `html` a standalone page (the same sanitised HTML as the judgment page, under a header of
 * its details), `txt` the plain full text under the same header. Content-Disposition: attachment, named after the
 * case number.
 */
export async function documentDownload(rawId: string | undefined, identity: Identity, format: "html" | "txt"): Promise<Response> {
  const page = await documentPage(rawId, identity);
  const detail: Record<string, unknown> = page.metadata;
  const html = page.html;
  const id = String(detail.id);
  const title = typeof detail.title === "string" && detail.title.trim() ? detail.title.trim() : String(detail.case_number ?? id);
  let body: string;
  let type: string;
  if (format === "txt") {
    body = [title, ...headerLines(detail), "", (await documentDetail(id, identity)).full_text].join("\n");
    type = "text/plain; charset=utf-8";
  } else {
    const meta = headerLines(detail)
      .map((l) => `<li>${escapeHtml(l)}</li>`)
      .join("");
    body = `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n<ul>${meta}</ul>\n${html}\n</body></html>\n`;
    type = "text/html; charset=utf-8";
  }
  return new Response(body, {
    headers: {
      "content-type": type,
      "content-disposition": `attachment; filename="${downloadName(detail.case_number, id, format)}"`,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
