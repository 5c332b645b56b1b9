"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Pagination } from "@/components/pagination";
import { Button, buttonClass } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { clearHistory, deleteHistoryEntry, historyFilters, listHistory, rerunHref, type HistoryRow } from "@/lib/client/cohorts-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, formatDateTime, formatNumber, plural } from "@/lib/i18n/locale";
import { fieldLabel } from "@/lib/schema/labels";

const PAGE_SIZE = 20;

/**
 * A history row's filters and sort as chips, in the words of the search page: the ones "Search again" sets; or, for a
 * search whose filters the page cannot set (one made through the API), the filter as it was asked and a note.
 */
function FilterChips({ row }: { row: HistoryRow }) {
  const { locale, t } = useI18n();
  const h = t.cohorts.history;
  if (!row.params) return null;
  const f = historyFilters(row);
  const chips: string[] = [];
  if (f) {
    if (f.jurisdiction.length) chips.push(fmt(h.chipJurisdiction, { value: f.jurisdiction.map((j) => t.common.jurisdiction[j]).join(", ") }));
    if (f.from) chips.push(fmt(h.chipFrom, { date: formatDate(locale, f.from) }));
    if (f.to) chips.push(fmt(h.chipTo, { date: formatDate(locale, f.to) }));
    if (f.court) chips.push(fmt(h.chipCourt, { value: f.court }));
    if (f.sort) chips.push(fmt(h.chipSort, { value: t.search.sorts[f.sort] }));
  } else {
    if (row.params.filter) chips.push(fmt(h.chipExpression, { value: row.params.filter }));
    if (row.params.filters) chips.push(fmt(h.chipFields, { value: Object.keys(row.params.filters).map((k) => fieldLabel(k, locale)).join(", ") }));
    if (row.params.sort) chips.push(fmt(h.chipSort, { value: row.params.sort in t.search.sorts ? t.search.sorts[row.params.sort as keyof typeof t.search.sorts] : row.params.sort }));
  }
  if (!chips.length) return null;
  return (
    <div className="mt-1 space-y-1">
      <ul className="flex flex-wrap gap-1" aria-label={h.filtersOf} data-testid="history-chips">
        {chips.map((c) => (
          <li key={c} data-testid="history-chip" className="max-w-full truncate rounded-full border border-brand/30 bg-brand-soft px-2 py-0.5 text-xs text-brand" title={c}>
            {c}
          </li>
        ))}
      </ul>
      {f ? null : (
        <p className="text-xs text-muted" data-testid="history-not-restorable">
          {h.notRestorable}
        </p>
      )}
    </div>
  );
}

/** /history: the caller's own searches, newest first, paged, each with "search again" and delete; delete all. */
export function SearchHistory() {
  const { locale, t } = useI18n();
  const h = t.cohorts.history;
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [confirmAll, setConfirmAll] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const list = useQuery({ queryKey: ["search-history", page], queryFn: () => listHistory(PAGE_SIZE, (page - 1) * PAGE_SIZE) });
  const refresh = () => qc.invalidateQueries({ queryKey: ["search-history"] });
  const onError = (e: Error) => setFailure(fmt(h.removeFailed, { message: e.message }));
  const removeOne = useMutation({ mutationFn: (id: string) => deleteHistoryEntry(id), onSuccess: () => (setFailure(null), refresh()), onError });
  const removeAll = useMutation({
    mutationFn: clearHistory,
    onSuccess: () => {
      setFailure(null);
      setConfirmAll(false);
      setPage(1);
      void refresh();
    },
    onError,
  });

  if (list.isPending) {
    return (
      <div aria-busy="true" aria-label={h.loading} className="space-y-2">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    );
  }
  if (list.isError) return <Notice tone="danger">{fmt(h.error, { message: list.error.message })}</Notice>;
  const data = list.data;
  const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  // A page emptied by deletes steps back to the last page that still has rows.
  if (data.results.length === 0 && page > 1) {
    setPage(Math.min(page - 1, pages));
    return null;
  }
  const modeLabel = (mode: string) => (mode in h.modes ? h.modes[mode as keyof typeof h.modes] : h.modes.other);

  return (
    <div className="space-y-4">
      {failure ? <Notice tone="danger">{failure}</Notice> : null}
      {data.total === 0 ? (
        <p className="text-muted" data-testid="history-empty">
          {h.empty}
        </p>
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-muted" data-testid="history-total">
              {plural(locale, data.total, h.total)}
            </p>
            <Button variant="danger" size="sm" onClick={() => setConfirmAll(true)}>
              {h.removeAll}
            </Button>
          </div>
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="history-table">
              <thead>
                <tr className="text-left text-muted">
                  <th className="py-1 pr-3 font-medium">{h.query}</th>
                  <th className="py-1 pr-3 font-medium">{h.when}</th>
                  <th className="py-1 pr-3 font-medium">{h.mode}</th>
                  <th className="py-1 pr-3 text-right font-medium">{h.results}</th>
                  <th className="py-1" />
                </tr>
              </thead>
              <tbody>
                {data.results.map((row: HistoryRow) => (
                  <tr key={row.id} className="border-t border-line" data-testid="history-row">
                    <td className="max-w-xs py-2 pr-3">
                      <div className="truncate" title={row.query}>
                        {row.query}
                      </div>
                      <FilterChips row={row} />
                    </td>
                    <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(locale, row.created_at)}</td>
                    <td className="py-2 pr-3">{modeLabel(row.mode)}</td>
                    <td className="py-2 pr-3 text-right">{formatNumber(locale, row.hit_count)}</td>
                    <td className="py-2">
                      <div className="flex justify-end gap-2">
                        <Link href={rerunHref(row)} className={buttonClass("secondary", "sm")}>
                          {h.rerun}
                        </Link>
                        <Button variant="secondary" size="sm" disabled={removeOne.isPending} onClick={() => removeOne.mutate(row.id)} aria-label={`${h.remove}: ${row.query}`}>
                          {h.remove}
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={page} pages={pages} onPage={setPage} label={h.pages} />
        </>
      )}
      <ConfirmDialog
        open={confirmAll}
        title={h.confirmAllTitle}
        description={plural(locale, data.total, h.confirmAllBody)}
        confirmLabel={h.removeAll}
        cancelLabel={h.cancel}
        busy={removeAll.isPending}
        onConfirm={() => removeAll.mutate()}
        onCancel={() => setConfirmAll(false)}
      />
    </div>
  );
}
