"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type DataTableColumns } from "@/components/ui/data-table";
import { Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { listMessages, setMessageStatus, type ContactMessage } from "@/lib/client/content-api";
import { useI18n } from "@/lib/i18n/client";
import { formatDate } from "@/lib/i18n/locale";
import { CONTACT_STATUSES, type ContactStatus } from "@/lib/schema/requests/content";

const col = createColumnHelper<ContactMessage>();

/** /admin/messages: contact messages newest first, filtered by status (the server) and by text (the page), sortable; mark read / new / archived. */
export function AdminMessages() {
  const { locale, t } = useI18n();
  const A = t.content.admin;
  const [status, setStatus] = useState<ContactStatus | "">("new");
  const [page, setPage] = useState(1);
  const [markFailed, setMarkFailed] = useState(false);

  const query = useQuery({ queryKey: ["admin-messages", page, status], queryFn: () => listMessages({ page, status: status || undefined }), placeholderData: keepPreviousData });
  const data = query.data ?? null;
  const loadFailed = query.isError;
  const load = async () => {
    await query.refetch();
  };

  async function mark(m: ContactMessage, s: ContactStatus) {
    setMarkFailed(false);
    try {
      await setMessageStatus(m.id, s);
      await load();
    } catch {
      setMarkFailed(true);
    }
  }

  const columns: DataTableColumns<ContactMessage> = [
    col.accessor("created_at", { header: A.columns.received, cell: (c) => <time dateTime={c.getValue()}>{formatDate(locale, c.getValue())}</time> }),
    col.accessor((m) => `${m.name} <${m.email}>`, {
      id: "from",
      header: A.columns.from,
      cell: ({ row: { original: m } }) => (
        <>
          <strong>{m.name}</strong>
          <span className="block break-all text-xs text-muted">{m.email}</span>
        </>
      ),
    }),
    col.accessor((m) => `${m.subject ?? ""} ${m.message}`, {
      id: "message",
      header: A.columns.message,
      cell: ({ row: { original: m } }) => (
        <div className="max-w-prose">
          {m.subject ? <p className="font-medium">{m.subject}</p> : null}
          <p className="mt-1 whitespace-pre-wrap text-ink/90">{m.message}</p>
        </div>
      ),
    }),
    col.accessor((m) => A.status[m.status], {
      id: "status",
      header: A.columns.status,
      cell: (c) => <Badge tone={c.row.original.status === "new" ? "brand" : "neutral"}>{c.getValue()}</Badge>,
    }),
    col.display({
      id: "actions",
      header: A.columns.actions,
      cell: ({ row: { original: m } }) => (
        <div className="flex flex-wrap gap-2">
          {m.status !== "read" ? (
            <Button size="sm" variant="secondary" onClick={() => void mark(m, "read")} aria-label={`${A.markRead}: ${m.subject ?? m.name}`}>
              {A.markRead}
            </Button>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => void mark(m, "new")} aria-label={`${A.markNew}: ${m.subject ?? m.name}`}>
              {A.markNew}
            </Button>
          )}
          {m.status !== "archived" ? (
            <Button size="sm" variant="ghost" onClick={() => void mark(m, "archived")} aria-label={`${A.archive}: ${m.subject ?? m.name}`}>
              {A.archive}
            </Button>
          ) : null}
          <a className="text-sm text-brand underline" href={`mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(`Re: ${m.subject ?? ""}`)}`}>
            {A.reply}
          </a>
        </div>
      ),
    }),
  ];

  return (
    <div className="space-y-4">
      <div>
        <Label htmlFor="msg-status">{A.statusFilter}</Label>
        <select
          id="msg-status"
          className={`${controlClass} h-10 w-auto`}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as ContactStatus | "");
            setPage(1);
          }}
        >
          <option value="">{A.all}</option>
          {CONTACT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {A.status[s]}
            </option>
          ))}
        </select>
      </div>
      {markFailed ? <Notice tone="danger">{t.common.unknownError}</Notice> : null}
      {loadFailed ? (
        <Notice tone="danger">{A.loadError}</Notice>
      ) : !data ? (
        <p className="text-muted">{t.common.loading}</p>
      ) : (
        <DataTable
          data={data.messages}
          columns={columns}
          label={A.messagesTitle}
          testId="admin-messages"
          getRowId={(m) => m.id}
          empty={<Notice>{A.emptyMessage}</Notice>}
          pagination={{ page, pages: data.pages, onPage: setPage, label: A.pagination }}
        />
      )}
    </div>
  );
}
