"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label, controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { Notice } from "@/components/ui/notice";
import { useSessionUser } from "@/components/shell/user-context";
import { ApiRequestError } from "@/lib/client/api";
import { searchDocuments, searchExportPath, type GuestAllowance, type InitialSearch, type SearchResult } from "@/lib/client/search-api";
import { ExportButton } from "@/components/export/export-button";
import {
  JURISDICTIONS,
  SEARCH_MODES,
  SEARCH_SORTS,
  hasSearchCriteria,
  parseSearchState,
  searchFilterExpression,
  serializeSearchState,
  type SearchMode,
  type SearchSort,
  type SearchUrlState,
} from "@/lib/client/search-url-state";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { CORPUS } from "@/components/corpus-facts";
import { GuestBanner, GuestLimitDialog } from "./guest-allowance";
import { SearchResults } from "./search-results";
import { SearchBox } from "./search-box";
import { SearchTips } from "./search-tips";
import { SaveSearchButton } from "@/components/accounts/save-search-button";

const hasCriteria = hasSearchCriteria;

/** Product events of a search's first page (whether the client or the server fetched it). */
function emitFirstPage(s: SearchUrlState, res: SearchResult) {
  const common = { query_length: s.q.trim().length, mode: s.mode };
  emit("search_submitted", { result_count: res.estimatedTotal, ...common });
  if (res.hits.length === 0) emit("search_zero_results", common);
}

/**
 * The /search client island: URL-driven state, one search request per URL, the guest allowance from the headers.
 * `initial` is the first page the server rendered for the URL it was loaded with (lib/api/page-search.ts): it seeds
 * the query data for that key, so the client does not search (nor charge a guest) again; paging and filters change
 * the URL with history.pushState, which Next's router follows without a server render, and fetch on the client.
 */
export function SearchPage({ initial = null }: { initial?: InitialSearch | null }) {
  const { locale, t } = useI18n();
  const user = useSessionUser();
  const pathname = usePathname();
  const params = useSearchParams();
  const state = parseSearchState(params);
  // Guests search by keyword only (spec: semantic_ratio forced to 0 for anonymous callers).
  const effective: SearchUrlState = user ? state : { ...state, mode: "text" };
  const key = serializeSearchState(effective);

  const [draft, setDraft] = useState<SearchUrlState>(effective);
  const [guest, setGuest] = useState<GuestAllowance | null>(initial?.key === key ? initial.result.guest : null);
  const [limitOpen, setLimitOpen] = useState(false);
  // Keep the form in step with back/forward navigation (state adjusted during render, not in an effect).
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    setDraftKey(key);
    setDraft(effective);
  }

  const search = useQuery({
    queryKey: ["search", key],
    enabled: hasCriteria(effective),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
    initialData: initial?.key === key ? initial.result : undefined,
    // No abort signal: an aborted request may already have been charged to the guest, and a retry would charge again.
    queryFn: async () => {
      try {
        const res = await searchDocuments(effective);
        if (res.guest) setGuest(res.guest);
        if (effective.page === 1) emitFirstPage(effective, res);
        return res;
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 429 && err.code === "GUEST_LIMIT_REACHED") {
          setGuest((g) => ({ limit: g?.limit ?? 5, remaining: 0, nudge: false }));
          setLimitOpen(true);
        }
        throw err;
      }
    },
  });

  // The server-rendered first page is reported once, as a client-fetched one would be.
  const reported = useRef(false);
  useEffect(() => {
    if (reported.current || !initial) return;
    reported.current = true;
    const s = parseSearchState(new URLSearchParams(window.location.search));
    if (s.page === 1) emitFirstPage(user ? s : { ...s, mode: "text" }, initial.result);
  }, [initial, user]);

  function go(next: SearchUrlState) {
    // Client-side: no server render (which would search again) for a page or filter change.
    window.history.pushState(null, "", `${pathname}${serializeSearchState(next)}`);
    window.scrollTo({ top: 0 });
  }

  function submit(e?: FormEvent) {
    e?.preventDefault();
    go({ ...draft, page: 1 });
  }

  const modeDisabled = (m: SearchMode) => !user && m !== "text";

  return (
    <div className="space-y-5">
      <form role="search" onSubmit={submit} className="space-y-4" aria-label={t.search.title}>
        <div className="flex gap-2">
          <SearchBox value={draft.q} onChange={(q) => setDraft((d) => ({ ...d, q }))} onPick={(q) => go({ ...draft, q, page: 1 })} />
          {/* Right after the query box: one Tab and Enter reach the results, past the filters. */}
          <a
            href="#results"
            data-testid="skip-to-results"
            className="sr-only z-50 rounded-control bg-brand px-3 py-2 text-on-brand focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
          >
            {t.search.skipToResults}
          </a>
          <Button type="submit" className="h-11 px-5">
            {t.search.submit}
          </Button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <label className="inline-flex items-center gap-2 text-sm">
            <span className="font-medium">{t.search.sort}</span>
            <select
              className={cx(controlClass, "h-9 w-auto")}
              value={draft.sort ?? "relevance"}
              onChange={(e) => {
                const sort = e.target.value as SearchSort;
                // A new order applies at once, from the first page (the results already shown are for this query).
                go({ ...draft, sort: sort === "relevance" ? undefined : sort, page: 1 });
              }}
            >
              {SEARCH_SORTS.map((o) => (
                <option key={o} value={o}>
                  {t.search.sorts[o]}
                </option>
              ))}
            </select>
          </label>
          <SearchTips />
        </div>

        <div className="flex flex-wrap items-start gap-x-8 gap-y-4">
          <fieldset>
            <legend className="mb-1 text-sm font-medium">{t.search.mode}</legend>
            <div className="inline-flex rounded-control border border-line-strong bg-surface p-0.5" aria-describedby={!user ? "mode-note" : undefined}>
              {SEARCH_MODES.map((m) => (
                <label
                  key={m}
                  className="relative cursor-pointer rounded-[calc(var(--radius-control)-2px)] px-3 py-1 text-sm has-checked:bg-brand has-checked:text-on-brand has-disabled:cursor-not-allowed has-disabled:text-subtle has-focus-visible:outline-2 has-focus-visible:outline-focus"
                >
                  <input
                    type="radio"
                    name="mode"
                    value={m}
                    className="sr-only"
                    checked={draft.mode === m}
                    disabled={modeDisabled(m)}
                    onChange={() => setDraft((d) => ({ ...d, mode: m }))}
                  />
                  {t.search.modes[m]}
                </label>
              ))}
            </div>
            {!user ? (
              <p id="mode-note" className="mt-1 max-w-xs text-xs text-muted">
                {t.search.modeGuestNote}
              </p>
            ) : null}
          </fieldset>

          <fieldset>
            <legend className="mb-1 text-sm font-medium">{t.search.jurisdiction}</legend>
            <div className="flex gap-3">
              {JURISDICTIONS.map((j) => (
                <label key={j} className="inline-flex items-center gap-1.5 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand"
                    checked={draft.jurisdiction.includes(j)}
                    onChange={(e) =>
                      setDraft((d) => ({
                        ...d,
                        jurisdiction: e.target.checked ? [...d.jurisdiction, j] : d.jurisdiction.filter((x) => x !== j),
                      }))
                    }
                  />
                  {t.common.jurisdiction[j]}
                </label>
              ))}
            </div>
          </fieldset>

          <div className="flex flex-wrap gap-3">
            <div>
              <Label htmlFor="search-from">{t.search.dateFrom}</Label>
              <Input id="search-from" type="date" className="h-9 w-40" value={draft.from} min="1990-01-01" max="2100-12-31" onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
            </div>
            <div>
              <Label htmlFor="search-to">{t.search.dateTo}</Label>
              <Input id="search-to" type="date" className="h-9 w-40" value={draft.to} min="1990-01-01" max="2100-12-31" onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
            </div>
            <div>
              <Label htmlFor="search-court">{t.search.court}</Label>
              <Input id="search-court" className="h-9 w-56" placeholder={t.search.courtPlaceholder} value={draft.court} maxLength={200} onChange={(e) => setDraft((d) => ({ ...d, court: e.target.value }))} />
            </div>
          </div>
          <div className="flex items-end gap-2 self-end">
            <Button type="submit" variant="secondary" size="sm" className="h-9">
              {t.search.apply}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="h-9"
              onClick={() => go({ ...draft, jurisdiction: [], from: "", to: "", court: "", page: 1 })}
            >
              {t.search.clear}
            </Button>
          </div>
        </div>
      </form>

      {guest ? <GuestBanner guest={guest} /> : null}

      {user && hasCriteria(effective) ? (
        <ExportButton what={t.exports.searchResults} hint={t.exports.limitSearch} disabled={!search.data} href={(format, headers) => searchExportPath(effective, format, headers)} testId="export-search" />
      ) : null}

      {user && hasCriteria(effective) ? (
        <SaveSearchButton
          kind="search"
          query={effective.q.trim()}
          // The page's URL state (page 1): opening the saved search restores it exactly.
          params={{ mode: effective.mode, filter: searchFilterExpression(effective), sort: "", url: serializeSearchState({ ...effective, page: 1 }) }}
          defaultName={effective.q.trim() || t.accounts.saved.title}
        />
      ) : null}

      {!hasCriteria(effective) ? (
        <p className="text-muted">{plural(locale, CORPUS.count, t.search.emptyPrompt)}</p>
      ) : search.isError && !(search.error instanceof ApiRequestError && search.error.code === "GUEST_LIMIT_REACHED") ? (
        <Notice tone="danger">{fmt(t.search.error, { message: search.error instanceof Error ? search.error.message : t.common.unknownError })}</Notice>
      ) : (
        <SearchResults state={effective} result={search.data} loading={search.isPending || search.isPlaceholderData} onPage={(page) => go({ ...effective, page })} />
      )}

      <GuestLimitDialog open={limitOpen} onOpenChange={setLimitOpen} limit={guest?.limit ?? 5} />
    </div>
  );
}
