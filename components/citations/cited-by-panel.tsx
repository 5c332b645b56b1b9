"use client";

/** "Cited by (n)": the corpus judgments citing this one, filtered, sorted and paged on the client. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pagination } from "@/components/pagination";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import type { CitedByBody } from "@/lib/backend/citations";
import { apiFetch } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { CitingFilters, CitingItems, citingParams, type CitingFilterValues } from "./citing-list";

const PAGE = 10;

export function CitedByPanel({ id }: { id: string }) {
  const { t } = useI18n();
  const C = t.citations;
  const [filters, setFilters] = useState<CitingFilterValues>({});
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ["cited-by", id, filters, page],
    queryFn: () => apiFetch<CitedByBody>(`/api/documents/${encodeURIComponent(id)}/cited-by?${citingParams(filters, { limit: PAGE, offset: (page - 1) * PAGE })}`),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const filtered = Object.keys(filters).some((k) => k !== "sort");
  const total = q.data?.total ?? 0;
  return (
    <section aria-labelledby="cited-by-h" data-testid="cited-by-panel">
      <h2 id="cited-by-h" className="text-lg font-semibold">
        {fmt(C.citedBy, { count: total })}
      </h2>
      {q.data && (total > 0 || filtered) ? (
        <div className="mt-3">
          <CitingFilters
            values={filters}
            outcomes={q.data.by_outcome.map((o) => o.outcome)}
            onSubmit={(v) => {
              setFilters(v);
              setPage(1);
            }}
          />
        </div>
      ) : null}
      {q.isPending ? (
        <div className="mt-3 space-y-2" aria-busy="true">
          <span className="sr-only">{C.loading}</span>
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : q.isError ? (
        <Notice tone="danger" className="mt-3">
          {C.listError}
        </Notice>
      ) : total === 0 ? (
        <p className="mt-3 text-sm text-muted">{filtered ? C.noneMatch : C.notCited}</p>
      ) : (
        <div className="mt-2" aria-busy={q.isPlaceholderData}>
          <CitingItems items={q.data.items} testId="cited-by-list" />
          <Pagination page={page} pages={Math.ceil(total / PAGE)} onPage={setPage} label={C.pages} />
        </div>
      )}
    </section>
  );
}
