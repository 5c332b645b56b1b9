"use client";

import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Pagination } from "@/components/pagination";
import { documentHref } from "@/lib/client/extraction-url-state";
import { RESULTS_PAGE_SIZE, type FilterResponse, type FilterRow } from "@/lib/client/extractions-api";
import { useI18n } from "@/lib/i18n/client";
import { formatDate } from "@/lib/i18n/locale";

const col = createColumnHelper<FilterRow>();

/** The clean case name from the extraction; `title` holds the raw opening text of the document (spec: item 6). */
function caseName(row: FilterRow): string | null {
  const v = row.extracted_data?.case_name ?? row.extracted_data?.base_case_name;
  return typeof v === "string" && v.trim() ? v : null;
}

/** The cohort's judgments, newest first (the filter function's order), a page at a time. */
export function ResultsTable({ data, loading, f, page, onPage }: { data: FilterResponse | undefined; loading: boolean; f: string; page: number; onPage: (p: number) => void }) {
  const { locale, t } = useI18n();
  const columns = useMemo(
    () => [
      col.accessor("title", {
        header: t.extr.colTitle,
        cell: (c) => (
          <Link href={documentHref(c.row.original.id, f)} prefetch={false} className="line-clamp-2 font-medium text-brand hover:underline" data-testid="result-link">
            {caseName(c.row.original) ?? (c.getValue() || c.row.original.case_number || c.row.original.id)}
          </Link>
        ),
      }),
      col.accessor("case_number", { header: t.extr.colCase, cell: (c) => c.getValue() ?? t.common.none }),
      col.accessor("jurisdiction", { header: t.extr.colJurisdiction, cell: (c) => (c.getValue() ? <Badge tone="brand">{c.getValue()}</Badge> : t.common.none) }),
      col.accessor("decision_date", {
        header: t.extr.colDate,
        cell: (c) => (c.getValue() ? <time dateTime={c.getValue()!}>{formatDate(locale, c.getValue())}</time> : t.common.none),
      }),
    ],
    [t, locale, f],
  );
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is built to re-render, not to be memoised
  const table = useReactTable({ data: data?.results ?? [], columns, getCoreRowModel: getCoreRowModel() });

  if (!data && loading) {
    return (
      <div className="space-y-2" aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-11 w-full" />
        ))}
      </div>
    );
  }
  if (!data) return null;
  if (data.results.length === 0) {
    return <p className="rounded-card border border-dashed border-line-strong p-6 text-center text-muted">{t.extr.noResults}</p>;
  }
  const pages = Math.max(1, Math.ceil(data.total / RESULTS_PAGE_SIZE));
  return (
    <div aria-busy={loading} className={loading ? "opacity-70" : undefined}>
      <div className="relative overflow-x-auto rounded-card border border-line bg-surface">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">{t.extr.results}</caption>
          <thead className="border-b border-line bg-sunken text-muted">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => (
                  <th key={h.id} scope="col" className="px-3 py-2 font-medium">
                    {flexRender(h.column.columnDef.header, h.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((r) => (
              <tr key={r.id} className="h-11 border-b border-line last:border-0 align-top hover:bg-canvas">
                {r.getVisibleCells().map((c) => (
                  <td key={c.id} className="px-3 py-2">
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} pages={pages} onPage={onPage} label={t.extr.results} />
    </div>
  );
}
