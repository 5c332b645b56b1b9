"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { SearchResult } from "@/lib/client/search-api";
import { SEARCH_PAGE_SIZE, type SearchUrlState } from "@/lib/client/search-url-state";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";
import { Pagination } from "@/components/pagination";
import { Highlighted } from "./highlighted";

/** Each card keeps a fixed minimum height and skeletons share it, so results arriving never shift the page. */
const CARD_MIN_H = "min-h-[7.25rem]";

export function SearchResults({
  state,
  result,
  loading,
  onPage,
}: {
  state: SearchUrlState;
  result: SearchResult | undefined;
  loading: boolean;
  onPage: (page: number) => void;
}) {
  const { locale, t } = useI18n();

  if (!result && loading) {
    return (
      <div aria-busy="true" aria-live="polite" className="space-y-3">
        <Skeleton className="h-5 w-48" />
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} className={`${CARD_MIN_H} space-y-3 p-4`}>
            <Skeleton className="h-5 w-3/4" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-12 w-full" />
          </Card>
        ))}
      </div>
    );
  }
  if (!result) return null;

  // A query naming a provision lists the judgments applying it: say so, and link the provision's own page.
  const provisionLine = result.provision ? (
    <p className="mb-3 text-sm" data-testid="search-provision">
      <Link href={`/legislation/${result.provision.id.split("/").map(encodeURIComponent).join("/")}`} className="font-medium text-brand underline">
        {fmt(t.citations.searchLine, { name: result.provision.name })}
      </Link>
    </p>
  ) : null;

  if (result.hits.length === 0) {
    return (
      <>
        {provisionLine}
        <div role="status" className="rounded-card border border-dashed border-line-strong p-8 text-center">
          <p className="font-medium">{fmt(t.search.noResults, { q: state.q })}</p>
          <p className="mt-1 text-sm text-muted">{t.search.noResultsHint}</p>
        </div>
      </>
    );
  }

  const pages = Math.max(1, Math.ceil(result.estimatedTotal / SEARCH_PAGE_SIZE));
  const offset = (state.page - 1) * SEARCH_PAGE_SIZE;
  return (
    <section id="results" tabIndex={-1} aria-labelledby="results-h" aria-busy={loading} className={loading ? "opacity-70 transition-opacity" : undefined}>
      <h2 id="results-h" className="mb-3 text-sm text-muted" aria-live="polite">
        <span data-testid="result-count">{plural(locale, result.estimatedTotal, t.search.resultsCount)}</span>
        {result.processingTimeMs !== null ? <span> {fmt(t.search.resultsTime, { ms: Math.round(result.processingTimeMs) })}</span> : null}
      </h2>
      {provisionLine}
      <ol className="space-y-3">
        {result.hits.map((hit, i) => (
          <li key={hit.id}>
            <Card className={`${CARD_MIN_H} p-4 hover:border-line-strong`}>
              <h3 className="text-base font-semibold leading-snug">
                <Link
                  // The query rides along: the judgment page marks its words in the full text.
                  href={`/documents/${encodeURIComponent(hit.id)}${state.q.trim() ? `?q=${encodeURIComponent(state.q.trim())}` : ""}`}
                  // Prefetching every result's server-rendered page competes with the search itself on small machines.
                  prefetch={false}
                  // A block: an inline link around the clamped block paints no focus ring.
                  className="block text-brand hover:underline"
                  onClick={() => emit("search_result_clicked", { document_id: hit.id, position: offset + i + 1 })}
                >
                  <span className="line-clamp-2">
                    <Highlighted html={hit.titleHtml} fallback={hit.title} />
                  </span>
                </Link>
              </h3>
              <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
                {hit.jurisdiction ? <Badge tone="brand">{hit.jurisdiction}</Badge> : null}
                {hit.caseNumber ? (
                  <span>
                    <span className="sr-only">{t.search.caseNumber}: </span>
                    {hit.caseNumber}
                  </span>
                ) : null}
                {hit.courtName ? <span>{hit.courtName}</span> : null}
                {hit.decisionDate ? (
                  <span>
                    <span className="sr-only">{t.search.decided}: </span>
                    <time dateTime={hit.decisionDate}>{formatDate(locale, hit.decisionDate)}</time>
                  </span>
                ) : null}
              </p>
              {hit.summaryHtml || hit.summary ? (
                <p className="mt-2 line-clamp-3 text-sm text-ink/85">
                  <Highlighted html={hit.summaryHtml} fallback={hit.summary} />
                </p>
              ) : null}
            </Card>
          </li>
        ))}
      </ol>
      <Pagination page={state.page} pages={pages} onPage={onPage} label={t.search.pagination} />
    </section>
  );
}
