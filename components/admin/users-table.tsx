"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useEffect, useMemo, useState } from "react";
import { useSessionUser } from "@/components/shell/user-context";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { listAdminUsers, updateAdminUser } from "@/lib/client/admin-api";
import { errorMessage } from "@/lib/client/api";
import type { AdminUser } from "@/lib/backend/responses";
import type { AdminUserPatch } from "@/lib/schema/requests/admin";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, formatNumber, plural } from "@/lib/i18n/locale";
import { QueryState } from "./query-state";

const PAGE_SIZE = 20;
const col = createColumnHelper<AdminUser>();

/**
 * /admin/users: e-mail search (server-side, debounced), sortable columns (this page), pagination, and per-row
 * actions: grant/revoke the admin role, ban (after confirmation) or lift a ban. One's own row has no role or ban
 * actions: the API refuses them (409 SELF_ROLE_CHANGE) and the panel does not offer them.
 */
export function UsersTable() {
  const { locale, t } = useI18n();
  const U = t.admin.users;
  const me = useSessionUser();
  const qc = useQueryClient();
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [banning, setBanning] = useState<AdminUser | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const id = setTimeout(() => {
      setQ(typed.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(id);
  }, [typed]);

  const users = useQuery({
    queryKey: ["admin", "users", q, page],
    queryFn: () => listAdminUsers({ q, page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const change = useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminUserPatch }) => updateAdminUser(id, patch),
    onSuccess: (u) => {
      setBanning(null);
      setNotice(fmt(U.saved, { email: u.email ?? u.id, role: u.role === "admin" ? U.admin : U.user, banned: u.banned ? U.bannedSuffix : "" }));
      void qc.invalidateQueries({ queryKey: ["admin", "users"] });
    },
  });

  const columns = useMemo<DataTableColumns<AdminUser>>(
    () => [
      col.accessor("email", { header: U.email, cell: (c) => <span className="break-all">{c.getValue() ?? "—"}</span> }),
      col.accessor("role", {
        header: U.role,
        cell: (c) => <Badge tone={c.getValue() === "admin" ? "brand" : "neutral"}>{c.getValue() === "admin" ? U.admin : U.user}</Badge>,
      }),
      col.accessor("banned", {
        header: U.status,
        cell: (c) => <Badge tone={c.getValue() ? "danger" : "ok"}>{c.getValue() ? U.banned : U.active}</Badge>,
      }),
      col.accessor("created_at", { header: U.created, cell: (c) => formatDate(locale, c.getValue()) }),
      col.accessor("last_sign_in_at", { header: U.lastSignIn, cell: (c) => (c.getValue() ? formatDate(locale, c.getValue()) : U.never) }),
      col.accessor("collections", { header: U.collections, cell: (c) => formatNumber(locale, c.getValue()) }),
      col.display({
        id: "actions",
        header: U.actions,
        cell: ({ row }) => {
          const u = row.original;
          if (u.id === me?.id) return <span className="text-sm text-muted">{U.you}</span>;
          return (
            <div className="flex flex-wrap gap-1">
              <Button
                size="sm"
                variant="secondary"
                disabled={change.isPending}
                onClick={() => change.mutate({ id: u.id, patch: { role: u.role === "admin" ? "user" : "admin" } })}
              >
                {u.role === "admin" ? U.revokeAdmin : U.makeAdmin}
              </Button>
              {u.banned ? (
                <Button size="sm" variant="secondary" disabled={change.isPending} onClick={() => change.mutate({ id: u.id, patch: { banned: false } })}>
                  {U.unban}
                </Button>
              ) : (
                <Button size="sm" variant="danger" disabled={change.isPending} onClick={() => setBanning(u)}>
                  {U.ban}
                </Button>
              )}
            </div>
          );
        },
      }),
    ],
    [U, locale, me?.id, change],
  );

  return (
    <div className="space-y-4">
      <div className="max-w-sm">
        <Label htmlFor="admin-user-search">{U.search}</Label>
        <Input id="admin-user-search" type="search" maxLength={254} value={typed} onChange={(e) => setTyped(e.target.value)} />
      </div>
      {notice ? <Notice tone="ok">{notice}</Notice> : null}
      {change.isError ? <Notice tone="danger">{errorMessage(change.error, t.common.unknownError)}</Notice> : null}
      <QueryState query={users}>
        {(data) => (
          <>
            {data.users.length > 0 ? <p className="text-sm text-muted">{plural(locale, data.total, U.total)}</p> : null}
            {/* The e-mail search above is this table's filter (server-side: it reaches every page). */}
            <DataTable
              data={data.users}
              columns={columns}
              label={U.title}
              testId="admin-users"
              getRowId={(u) => u.id}
              rowProps={(u) => ({ "data-email": u.email ?? "" })}
              filter={false}
              pagination={{ page, pages: data.pages, onPage: setPage, label: U.pagination }}
            />
          </>
        )}
      </QueryState>

      <DialogRoot open={!!banning} onOpenChange={(o) => !o && setBanning(null)}>
        <DialogContent title={U.ban} description={fmt(U.confirmBan, { email: banning?.email ?? "" })}>
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setBanning(null)}>
              {U.cancel}
            </Button>
            <Button variant="danger" disabled={change.isPending} onClick={() => banning && change.mutate({ id: banning.id, patch: { banned: true } })}>
              {U.confirm}
            </Button>
          </div>
        </DialogContent>
      </DialogRoot>
    </div>
  );
}
