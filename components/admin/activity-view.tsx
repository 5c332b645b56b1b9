"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { getAdminActivity } from "@/lib/client/admin-api";
import type { ActivityItem, AuditEntry } from "@/lib/backend/responses";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDateTime, type Locale } from "@/lib/i18n/locale";
import { QueryState } from "./query-state";

const PAGE = 50;
const when = (locale: Locale, iso: string) => formatDateTime(locale, iso);
const itemCol = createColumnHelper<ActivityItem>();
const auditCol = createColumnHelper<AuditEntry>();
const json = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

type Columns<T> = DataTableColumns<T>;

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
            <DataTable data={data.items} columns={itemColumns} label={A.recent} testId="admin-activity" pageSize={PAGE} />
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
            <DataTable data={data.audit} columns={auditColumns} label={A.audit} testId="admin-audit" pageSize={PAGE} />
          </Card>
          <p className="sr-only" aria-live="polite">
            {fmt(t.common.pageOf, { page: cursors.length + 1, pages: cursors.length + (data.next_before ? 2 : 1) })}
          </p>
        </div>
      )}
    </QueryState>
  );
}
