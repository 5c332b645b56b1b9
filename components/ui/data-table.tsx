"use client";

import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type SortingState,
} from "@tanstack/react-table";
import { useId, useState, type ReactNode } from "react";
import { Pagination } from "@/components/pagination";
import { Input, Label } from "@/components/ui/field";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";

// Columns of different value types in one list: tanstack's own documented type for that is ColumnDef<T, any>.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumns<T> = ColumnDef<T, any>[];

/** A filter the caller runs itself (e.g. a server-side e-mail search): the table shows the input, nothing more. */
export interface ControlledFilter {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}

/** Pages the server cuts (`page`/`pages` of a list answer); without it the table pages the rows it holds. */
export interface ServerPagination {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
}

export interface DataTableProps<T> {
  data: T[];
  columns: DataTableColumns<T>;
  /** The table's accessible name. */
  label: string;
  testId?: string;
  getRowId?: (row: T) => string;
  /** Extra attributes of a row (`data-*`, for tests and styling). */
  rowProps?: (row: T) => Record<`data-${string}`, string>;
  /** Undefined: a text filter over the rows held; a ControlledFilter: the caller's own; false: none. */
  filter?: ControlledFilter | false;
  pagination?: ServerPagination;
  /** Rows per page when the table pages its rows itself. */
  pageSize?: number;
  /** Controls shown beside the filter (a status select, a "New" button). */
  toolbar?: ReactNode;
  /** Shown instead of the table when there are no rows (the toolbar and filter stay, so a filter can be undone). */
  empty?: ReactNode;
}

const ariaSort = (s: false | "asc" | "desc") => (s === "asc" ? "ascending" : s === "desc" ? "descending" : "none");

/**
 * The admin panel's table (@tanstack/react-table with sort, filter, pagination): column headers sort
 * (buttons, so the keyboard reaches them; `aria-sort` on the header cell says the state), a text filter, and previous/
 * next pages, either the server's or over the rows held. Sorting and the built-in filter act on the rows held.
 */
export function DataTable<T>({
  data,
  columns,
  label,
  testId,
  getRowId,
  rowProps,
  filter,
  pagination,
  pageSize = 20,
  toolbar,
  empty,
}: DataTableProps<T>) {
  const { locale, t } = useI18n();
  const T = t.admin.table;
  const filterId = useId();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [globalFilter, setGlobalFilter] = useState("");
  const [paging, setPaging] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const clientPaging = !pagination;

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is built to re-render, not to be memoised
  const table = useReactTable({
    data,
    columns,
    getRowId,
    state: { sorting, globalFilter, ...(clientPaging ? { pagination: paging } : {}) },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    onPaginationChange: setPaging,
    // A filter or sort change shows the first page again.
    autoResetPageIndex: true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(clientPaging ? { getPaginationRowModel: getPaginationRowModel() } : {}),
  });

  const rows = table.getRowModel().rows;
  const shown = table.getFilteredRowModel().rows.length;
  const filterInput =
    filter === false ? null : filter ? (
      <div className="max-w-xs">
        <Label htmlFor={filterId}>{filter.label}</Label>
        <Input id={filterId} type="search" maxLength={filter.maxLength} value={filter.value} onChange={(e) => filter.onChange(e.target.value)} />
      </div>
    ) : data.length > 0 ? (
      <div className="max-w-xs">
        <Label htmlFor={filterId}>{T.filter}</Label>
        <Input id={filterId} type="search" value={globalFilter} onChange={(e) => setGlobalFilter(e.target.value)} aria-controls={testId} />
      </div>
    ) : null;

  return (
    <div className="space-y-3">
      {filterInput || toolbar ? (
        <div className="flex flex-wrap items-end justify-between gap-3">
          {filterInput ?? <span />}
          {toolbar}
        </div>
      ) : null}
      {data.length === 0 ? (
        (empty ?? <p className="text-sm text-muted">{t.admin.empty}</p>)
      ) : (
        <>
          <div className="overflow-x-auto rounded-card border border-line">
            <table className="w-full text-left text-sm" data-testid={testId} id={testId} aria-label={label}>
              <thead className="bg-sunken">
                {table.getHeaderGroups().map((hg) => (
                  <tr key={hg.id}>
                    {hg.headers.map((h) => {
                      const sortable = h.column.getCanSort();
                      const sorted = h.column.getIsSorted();
                      return (
                        <th key={h.id} scope="col" className="px-3 py-2 font-medium" aria-sort={sortable ? ariaSort(sorted) : undefined}>
                          {h.isPlaceholder ? null : sortable ? (
                            <button
                              type="button"
                              className="inline-flex items-center gap-1 rounded-control hover:underline focus-visible:outline-2 focus-visible:outline-brand"
                              onClick={h.column.getToggleSortingHandler()}
                              title={fmt(T.sortBy, { column: typeof h.column.columnDef.header === "string" ? h.column.columnDef.header : h.column.id })}
                            >
                              {flexRender(h.column.columnDef.header, h.getContext())}
                              <span aria-hidden="true">{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}</span>
                            </button>
                          ) : (
                            flexRender(h.column.columnDef.header, h.getContext())
                          )}
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id} className="border-t border-line" {...(rowProps ? rowProps(r.original) : {})}>
                    {r.getVisibleCells().map((c) => (
                      <td key={c.id} className="px-3 py-2 align-top">
                        {flexRender(c.column.columnDef.cell, c.getContext())}
                      </td>
                    ))}
                  </tr>
                ))}
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={table.getVisibleLeafColumns().length} className="px-3 py-4 text-center text-muted">
                      {T.noMatch}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          {/* Filtering is silent otherwise: say how many rows are left. */}
          <p className="sr-only" aria-live="polite">
            {globalFilter ? plural(locale, shown, T.matching) : ""}
          </p>
          {pagination ? (
            <Pagination page={pagination.page} pages={pagination.pages} onPage={pagination.onPage} label={pagination.label} />
          ) : (
            <Pagination
              page={table.getState().pagination.pageIndex + 1}
              pages={Math.max(table.getPageCount(), 1)}
              onPage={(p) => table.setPageIndex(p - 1)}
              label={fmt(T.pages, { table: label })}
            />
          )}
        </>
      )}
    </div>
  );
}
