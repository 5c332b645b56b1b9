"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/field";
import { getAdminActivity } from "@/lib/client/admin-api";
import type { ActivityItem, AuditEntry } from "@/lib/backend/responses";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { QueryState } from "./query-state";

const PAGE = 50;
const when = (locale: string, iso: string) => new Date(iso).toLocaleString(locale === "pl" ? "pl-PL" : "en-GB");
const itemCol = createColumnHelper<ActivityItem>();
const auditCol = createColumnHelper<AuditEntry>();
const json = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

// Columns of different value types in one list: tanstack's own documented type for that is ColumnDef<T, any>.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Columns<T> = ColumnDef<T, any>[];

/** A sortable, filterable table (sorting and the text filter act on the loaded page). */
function DataTable<T>({ data, columns, label, testId }: { data: T[]; columns: Columns<T>; label: string; testId: string }) {
  const { t } = useI18n();
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState("");
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table is built to re-render, not to be memoised
  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: filter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  if (data.length === 0) return <p className="text-sm text-muted">{t.admin.empty}</p>;
  return (
    <div className="space-y-2">
      <div className="max-w-xs">
        <Label htmlFor={`${testId}-filter`}>{t.admin.activity.filter}</Label>
        <Input id={`${testId}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <div className="overflow-x-auto rounded-card border border-line">
        <table className="w-full text-left text-sm" data-testid={testId} aria-label={label}>
          <thead className="bg-sunken">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  return (
                    <th key={h.id} scope="col" className="px-3 py-2 font-medium" aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                      <button type="button" className="inline-flex items-center gap-1 hover:underline" onClick={h.column.getToggleSortingHandler()}>
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span aria-hidden="true">{sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}</span>
                      </button>
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((r) => (
              <tr key={r.id} className="border-t border-line">
                {r.getVisibleCells().map((c) => (
                  <td key={c.id} className="px-3 py-2 align-top">
                    {flexRender(c.column.columnDef.cell, c.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** /admin/activity: events and searches newest first (cursor paging), then the admin audit log (before/after). */
export function ActivityView() {
  const { locale, t } = useI18n();
  const A = t.admin.activity;
  const [cursors, setCursors] = useState<string[]>([]);
  const before = cursors.at(-1) ?? null;
  const activity = useQuery({
    queryKey: ["admin", "activity", before],
    queryFn: () => getAdminActivity({ limit: PAGE, before }),
    placeholderData: keepPreviousData,
  });

  const itemColumns = useMemo(
    () =>
      [
        itemCol.accessor("at", { header: A.when, cell: (c) => <time dateTime={c.getValue()}>{when(locale, c.getValue())}</time> }),
        itemCol.accessor("kind", {
          header: A.kind,
          cell: (c) => <Badge tone={c.getValue() === "search" ? "brand" : "neutral"}>{c.getValue() === "search" ? A.search : A.event}</Badge>,
        }),
        itemCol.accessor("name", { header: A.what }),
        itemCol.accessor("detail", { header: A.detail, cell: (c) => <span className="break-all">{c.getValue() ?? "—"}</span> }),
        itemCol.accessor("hit_count", { header: A.hits, cell: (c) => c.getValue() ?? "—" }),
        itemCol.accessor("user_email", { header: A.who, cell: (c) => c.getValue() ?? A.guest }),
      ] as Columns<ActivityItem>,
    [A, locale],
  );
  const auditColumns = useMemo(
    () =>
      [
        auditCol.accessor("at", { header: A.when, cell: (c) => <time dateTime={c.getValue()}>{when(locale, c.getValue())}</time> }),
        auditCol.accessor("actor_email", { header: A.actor, cell: (c) => c.getValue() ?? "—" }),
        auditCol.accessor("action", { header: A.action }),
        auditCol.accessor((e) => `${e.target_type}${e.target_id ? ` ${e.target_id}` : ""}`, { id: "target", header: A.target }),
        auditCol.accessor((e) => json(e.before), { id: "before", header: A.before, cell: (c) => <code className="break-all text-xs">{c.getValue()}</code> }),
        auditCol.accessor((e) => json(e.after), { id: "after", header: A.after, cell: (c) => <code className="break-all text-xs">{c.getValue()}</code> }),
      ] as Columns<AuditEntry>,
    [A, locale],
  );

  return (
    <QueryState query={activity}>
      {(data) => (
        <div className="space-y-8">
          <Card className="space-y-3 p-5">
            <h2 className="text-lg font-semibold">{A.recent}</h2>
            <DataTable data={data.items} columns={itemColumns} label={A.recent} testId="admin-activity" />
            <div className="flex gap-2">
              <Button size="sm" variant="secondary" disabled={cursors.length === 0} onClick={() => setCursors([])}>
                {A.newest}
              </Button>
              <Button size="sm" variant="secondary" disabled={!data.next_before} onClick={() => data.next_before && setCursors([...cursors, data.next_before])}>
                {A.older} →
              </Button>
            </div>
          </Card>
          <Card className="space-y-3 p-5">
            <h2 className="text-lg font-semibold">{A.audit}</h2>
            <DataTable data={data.audit} columns={auditColumns} label={A.audit} testId="admin-audit" />
          </Card>
          <p className="sr-only" aria-live="polite">
            {fmt(t.common.pageOf, { page: cursors.length + 1, pages: cursors.length + (data.next_before ? 2 : 1) })}
          </p>
        </div>
      )}
    </QueryState>
  );
}
