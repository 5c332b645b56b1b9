"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { CitedByPanel } from "@/components/citations/cited-by-panel";
import { CitesPanel } from "@/components/citations/cites-panel";
import { documentHref, provisionHref } from "@/components/citations/links";
import type { DocumentReference, DocumentReferencesBody } from "@/lib/backend/citations";
import { apiFetch } from "@/lib/client/api";
import { highlightedKeys } from "@/lib/client/base-field-highlight";
import { decodeFilter } from "@/lib/client/filter-codec";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { formatDate } from "@/lib/i18n/locale";
import { isHttpUrl } from "@/lib/schema/text";
import { AddToCollection } from "./add-to-collection";
import { BaseFields } from "./base-fields";
import { FullText, TableOfContents, useJudgmentHtml } from "./full-text";
import type { Judgment } from "./judgment";
import { CitationTools, FindInText } from "./reader-tools";
import { linkReferences, type ReferenceLink } from "./reference-links";
import { SimilarJudgments } from "./similar";

function Row({ label, children, matched, matchedLabel, k }: { label: string; children: ReactNode; matched: boolean; matchedLabel: string; k: string }) {
  return (
    <div data-key={k} data-matched={matched ? "true" : undefined} className={cx("py-1.5 sm:grid sm:grid-cols-[10rem_1fr] sm:gap-4", matched && "rounded-control border-l-4 border-l-match-line bg-match px-2")}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="flex flex-wrap items-center gap-2 text-sm">
        {children}
        {matched ? <Badge tone="warn">{matchedLabel}</Badge> : null}
      </dd>
    </div>
  );
}

/**
 * The references of the text that lead somewhere: a case reference resolved to a corpus judgment, a provision. Spans
 * that overlap an earlier one (a list's members share words) are left out, so each text is linked once.
 */
function referenceLinks(items: readonly DocumentReference[]): ReferenceLink[] {
  const links: ReferenceLink[] = [];
  let end = -1;
  const inText = items.filter((r) => r.origin === "text" && r.start !== null && r.end !== null).sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  for (const r of inText) {
    const href = r.kind === "case" ? (r.target_id ? documentHref(r.target_id) : null) : r.canonical_id ? provisionHref(r.canonical_id) : null;
    if (!href || (r.start ?? 0) < end) continue;
    links.push({ text: r.text, href, kind: r.kind === "case" ? "case" : "legislation" });
    end = r.end ?? end;
  }
  return links;
}

/**
 * The judgment page: details, extracted fields (#base-fields), full text with contents, similar judgments. `html` is
 * the sanitised full text the server read with the metadata (null when it could not): it seeds the text query, so the
 * judgment and its contents are in the server HTML and the client does not fetch them again.
 */
export function DocumentView({
  judgment,
  f,
  q = "",
  html: initialHtml = null,
  references: initialReferences = null,
}: {
  judgment: Judgment;
  f: string | null;
  /** The search the reader came from: its words are marked in the full text (the find box starts with it). */
  q?: string;
  html?: string | null;
  /** What the judgment cites, as the server read it (null: read in the browser). */
  references?: DocumentReference[] | null;
}) {
  const { locale, t } = useI18n();
  const D = t.doc;
  const { filter } = decodeFilter(f);
  const highlighted = highlightedKeys(filter);
  const html = useJudgmentHtml(judgment.id, initialHtml);
  const textRef = useRef<HTMLDivElement>(null);
  const refs = useQuery({
    queryKey: ["doc-references", judgment.id],
    queryFn: async () => (await apiFetch<DocumentReferencesBody>(`/api/documents/${encodeURIComponent(judgment.id)}/references`)).items,
    staleTime: Infinity,
    initialData: initialReferences ?? undefined,
  });
  const linkedHtml = useMemo(
    () => (html.prepared && refs.data ? linkReferences(html.prepared.html, referenceLinks(refs.data)) : (html.prepared?.html ?? null)),
    [html.prepared, refs.data],
  );

  useEffect(() => {
    emit("judgment_viewed", { document_id: judgment.id });
  }, [judgment.id]);

  const m = (k: string) => highlighted.has(k);
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="min-w-0 space-y-8">
        <header>
          {f ? (
            <Link href={`/search/extractions?f=${encodeURIComponent(f)}`} className="mb-2 inline-block text-sm text-brand underline">
              ← {D.backToResults}
            </Link>
          ) : null}
          <h1 className="text-2xl font-semibold tracking-tight break-words">{judgment.title || judgment.caseNumber || D.titleFallback}</h1>
          <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-muted">
            {judgment.country ? <Badge tone="brand">{judgment.country}</Badge> : null}
            {judgment.caseNumber ? <span>{judgment.caseNumber}</span> : null}
            {judgment.dateIssued ? <time dateTime={judgment.dateIssued}>{formatDate(locale, judgment.dateIssued)}</time> : null}
          </p>
          <div className="mt-3">
            <CitationTools judgment={judgment} />
          </div>
        </header>

        <Card className="p-5">
          <h2 className="text-lg font-semibold">{D.metadata}</h2>
          <dl className="mt-3 divide-y divide-line">
            <Row k="country" label={D.country} matched={m("country")} matchedLabel={D.matchedFilter}>
              {judgment.country ? (t.common.jurisdiction[judgment.country as "PL" | "UK"] ?? judgment.country) : t.common.none}
            </Row>
            <Row k="case_number" label={D.caseNumber} matched={false} matchedLabel="">
              {judgment.caseNumber ?? t.common.none}
            </Row>
            <Row k="court_name" label={D.court} matched={m("court_name")} matchedLabel={D.matchedFilter}>
              {judgment.courtName ?? t.common.none}
            </Row>
            {judgment.courtLevel ? (
              <Row k="court_level" label={D.courtLevel} matched={false} matchedLabel="">
                {judgment.courtLevel}
              </Row>
            ) : null}
            <Row k="date_issued" label={D.dateIssued} matched={m("date_issued")} matchedLabel={D.matchedFilter}>
              {formatDate(locale, judgment.dateIssued)}
            </Row>
            {judgment.publicationDate ? (
              <Row k="publication_date" label={D.published} matched={false} matchedLabel="">
                {formatDate(locale, judgment.publicationDate)}
              </Row>
            ) : null}
            {judgment.decisionType ? (
              <Row k="decision_type" label={D.decisionType} matched={false} matchedLabel="">
                {judgment.decisionType}
              </Row>
            ) : null}
            <Row k="judges" label={D.judges} matched={false} matchedLabel="">
              {judgment.judges.length ? judgment.judges.map((j) => (j.role ? `${j.name} (${j.role})` : j.name)).join(", ") : t.common.none}
            </Row>
            {judgment.keywords.length ? (
              <Row k="keywords" label={D.keywords} matched={false} matchedLabel="">
                {judgment.keywords.join(", ")}
              </Row>
            ) : null}
            {judgment.legalTopics.length ? (
              <Row k="legal_topics" label={D.topics} matched={false} matchedLabel="">
                {judgment.legalTopics.join(", ")}
              </Row>
            ) : null}
            <Row k="source_url" label={D.source} matched={false} matchedLabel="">
              {judgment.source ? <span>{D.sourceNames[judgment.source]}</span> : null}
              {/* Checked again here: rows stored before ingestion refused other schemes may hold javascript: or data:. */}
              {isHttpUrl(judgment.sourceUrl) ? (
                <a href={judgment.sourceUrl} rel="noopener noreferrer nofollow" target="_blank" className="text-brand underline">
                  {D.sourceLink}
                </a>
              ) : judgment.source ? null : (
                t.common.none
              )}
            </Row>
            {judgment.licence ? (
              <Row k="licence" label={D.licence} matched={false} matchedLabel="">
                {judgment.licence}
              </Row>
            ) : null}
          </dl>
        </Card>

        <Card className="p-5">
          <BaseFields base={judgment.base} highlighted={highlighted} locale={locale} t={t} />
        </Card>

        <Card className="space-y-8 p-5">
          <CitesPanel items={refs.data} loading={refs.isPending} error={refs.isError} />
          <CitedByPanel id={judgment.id} />
        </Card>

        <FullText state={html} html={linkedHtml} textRef={textRef} tools={<FindInText textRef={textRef} initialQuery={q} ready={linkedHtml ?? undefined} />} />
      </div>

      <aside className="space-y-8 lg:sticky lg:top-28 lg:max-h-[calc(100dvh-8rem)] lg:self-start lg:overflow-y-auto">
        <AddToCollection documentId={judgment.id} />
        {html.prepared ? <TableOfContents toc={html.prepared.toc} /> : null}
        <SimilarJudgments id={judgment.id} />
      </aside>
    </div>
  );
}
