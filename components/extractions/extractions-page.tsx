"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/client/api";
import { SaveSearchButton } from "@/components/accounts/save-search-button";
import { parseExtractionState, serializeExtractionState, type ExtractionUrlState } from "@/lib/client/extraction-url-state";
import { filterDocuments, rowsExportHref, type InitialExtractions } from "@/lib/client/extractions-api";
import { ExportButton } from "@/components/export/export-button";
import { encodeFilter, toApiFilter, type PageFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { AggregatePanel } from "./aggregate-panel";
import { FacetScopeProvider } from "./facet-scope";
import { FilterChips } from "./filter-chips";
import { FilterDrawer } from "./filter-drawer";
import { NlBox } from "./nl-box";
import { QuickFilters } from "./quick-filters";
import { ResultsTable } from "./results-table";
import { SaveCollectionDialog } from "./save-dialog";
import { CiteCohortButton } from "@/components/cohorts/cite-cohort-button";

type State = Omit<ExtractionUrlState, "malformed">;

/** /search/extractions: everything is derived from the URL (f, q, page, nl), so reload, back/forward and links restore it. */
export function ExtractionsPage({ llmEnabled, initial = null }: { llmEnabled: boolean; initial?: InitialExtractions | null }) {
  const { locale, t } = useI18n();
  const pathname = usePathname();
  const params = useSearchParams();
  const url = parseExtractionState(params);
  const f = encodeFilter(url.filter);
  const apiFilter = toApiFilter(url.filter);
  const urlKey = serializeExtractionState(url);
  // The first page (and default aggregate) the server rendered for the URL this page was loaded with.
  const served = initial?.key === urlKey ? initial : null;

  const [qDraft, setQDraft] = useState(url.q);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [draft, setDraft] = useState<PageFilter>(url.filter);
  const [pendingNl, setPendingNl] = useState<{ nl: string; q: string | null } | null>(null);
  const [saveOpen, setSaveOpen] = useState(false);
  const [seenKey, setSeenKey] = useState(urlKey);
  if (seenKey !== urlKey) {
    // Back/forward or a link changed the URL: the form follows it.
    setSeenKey(urlKey);
    setQDraft(url.q);
    setDraft(url.filter);
  }

  function go(next: State) {
    // Client-side (Next's router follows pushState): no server render of the page, which would read the cohort again.
    window.history.pushState(null, "", `${pathname}${serializeExtractionState(next)}`);
  }
  const base: State = { filter: url.filter, q: url.q, page: url.page, nl: url.nl };

  // Each page of results carries the `f` it was fetched for: while the next filter loads, the previous rows stay on
  // screen (keepPreviousData), and their links must open the judgment with the filter those rows satisfied, not the
  // new one, or the judgment page would mark fields as matching a filter the judgment does not meet.
  const results = useQuery({
    queryKey: ["extr-filter", f, url.q, url.page],
    queryFn: async ({ signal }) => ({ f, response: await filterDocuments(apiFilter, url.q, url.page, signal) }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    initialData: served ? { f, response: served.results } : undefined,
  });

  function openDrawer() {
    setDraft(url.filter);
    setPendingNl(null);
    setDrawerOpen(true);
  }

  function applyDraft() {
    setDrawerOpen(false);
    go({ filter: draft, q: pendingNl?.q ?? url.q, page: 1, nl: pendingNl?.nl ?? url.nl });
    setPendingNl(null);
  }

  return (
    <div className="space-y-6">
      {url.malformed ? <Notice tone="warn">{t.extr.malformedF}</Notice> : null}

      {/* Always shown: without a model the server's rules translator answers. */}
      <NlBox
        llmEnabled={llmEnabled}
        initial={url.nl}
        onFilled={({ filter, textQuery, question }) => {
          setDraft(filter);
          // The proposal's text chip is the text query; a dropped one clears it.
          setPendingNl({ nl: question, q: textQuery ?? "" });
          setDrawerOpen(true);
        }}
        onApply={({ filter, textQuery, question }) => go({ filter, q: textQuery ?? "", page: 1, nl: question })}
      />

      <form
        role="search"
        aria-label={t.extr.title}
        className="flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          go({ ...base, q: qDraft, page: 1 });
        }}
      >
        <label htmlFor="extr-q" className="sr-only">
          {t.extr.textQuery}
        </label>
        <Input id="extr-q" type="search" className="min-w-0 flex-1 basis-60" maxLength={1000} placeholder={t.extr.textQueryPlaceholder} value={qDraft} onChange={(e) => setQDraft(e.target.value)} />
        <Button type="submit">{t.search.submit}</Button>
        <Button variant="secondary" onClick={openDrawer} data-testid="open-filters">
          {t.extr.openFilters}
          {Object.keys(url.filter).length ? <span className="rounded-full bg-brand px-1.5 text-xs text-on-brand">{Object.keys(url.filter).length}</span> : null}
        </Button>
      </form>

      <FacetScopeProvider value={{ filter: url.filter, textQuery: url.q }}>
        <QuickFilters
          filter={url.filter}
          onChange={(key, v) => {
            const next = { ...url.filter };
            if (v === undefined) delete next[key];
            else next[key] = v;
            go({ ...base, filter: next, page: 1 });
          }}
        />
      </FacetScopeProvider>

      <FilterChips
        filter={url.filter}
        onRemove={(key) => {
          const next = { ...url.filter };
          delete next[key];
          go({ ...base, filter: next, page: 1 });
        }}
        onClear={() => go({ filter: {}, q: url.q, page: 1, nl: "" })}
      />

      <section aria-labelledby="results-h" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="results-h" className="text-lg font-semibold">
            {t.extr.results}{" "}
            <span className="text-base font-normal text-muted" data-testid="cohort-total" aria-live="polite">
              {results.data ? plural(locale, results.data.response.total, t.extr.total) : null}
            </span>
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            <SaveSearchButton
              kind="extractions"
              query={url.q.trim()}
              params={{ f: apiFilter, q: url.q.trim(), url: serializeExtractionState({ ...url, page: 1 }) }}
              defaultName={url.nl.trim() || url.q.trim() || t.extr.title}
            />
            <Button variant="secondary" size="sm" onClick={() => setSaveOpen(true)} disabled={!results.data}>
              {t.extr.save}
            </Button>
            <CiteCohortButton filters={apiFilter} textQuery={url.q} disabled={!results.data} />
          </div>
        </div>
        {results.isError ? (
          <Notice tone="danger">{fmt(t.extr.error, { message: errorMessage(results.error, t.common.unknownError) })}</Notice>
        ) : (
          <ResultsTable data={results.data?.response} loading={results.isFetching} f={results.data?.f ?? f} page={url.page} onPage={(page) => go({ ...base, page })} />
        )}
        <ExportButton
          what={t.exports.cohortRows}
          hint={t.exports.limitRows}
          disabled={!results.data}
          href={(format, headers) => rowsExportHref(apiFilter, url.q, format, headers)}
          testId="export-rows"
        />
      </section>

      <AggregatePanel filters={apiFilter} textQuery={url.q} initial={served?.aggregate ?? null} />

      {/* The drawer's value lists are counted within the draft being edited (faceted counts). */}
      <FacetScopeProvider value={{ filter: draft, textQuery: pendingNl?.q ?? url.q }}>
        <FilterDrawer open={drawerOpen} onOpenChange={setDrawerOpen} draft={draft} setDraft={setDraft} onApply={applyDraft} />
      </FacetScopeProvider>
      <SaveCollectionDialog open={saveOpen} onOpenChange={setSaveOpen} filters={apiFilter} textQuery={url.q} nl={url.nl} />
    </div>
  );
}
