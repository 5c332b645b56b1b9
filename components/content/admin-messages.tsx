"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Pagination } from "@/components/pagination";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { listMessages, setMessageStatus, type ContactMessage } from "@/lib/client/content-api";
import { useI18n } from "@/lib/i18n/client";
import { formatDate } from "@/lib/i18n/locale";
import { CONTACT_STATUSES, type ContactStatus } from "@/lib/schema/requests/content";

/** /admin/messages: contact messages newest first, filtered by status; mark read / new / archived. */
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
      ) : data.messages.length === 0 ? (
        <Notice>{A.emptyMessage}</Notice>
      ) : (
        <>
          <ul className="space-y-3">
            {data.messages.map((m) => (
              <li key={m.id} className="rounded-card border border-line bg-surface p-4">
                <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span>
                    <strong>{m.name}</strong> &lt;{m.email}&gt; · {formatDate(locale, m.created_at)}
                  </span>
                  <Badge tone={m.status === "new" ? "brand" : "neutral"}>{A.status[m.status]}</Badge>
                </div>
                {m.subject ? <p className="mt-1 font-medium">{m.subject}</p> : null}
                <p className="mt-2 whitespace-pre-wrap text-sm text-ink/90">{m.message}</p>
                <div className="mt-3 flex flex-wrap gap-2">
                  {m.status !== "read" ? (
                    <Button size="sm" variant="secondary" onClick={() => void mark(m, "read")}>
                      {A.markRead}
                    </Button>
                  ) : (
                    <Button size="sm" variant="secondary" onClick={() => void mark(m, "new")}>
                      {A.markNew}
                    </Button>
                  )}
                  {m.status !== "archived" ? (
                    <Button size="sm" variant="ghost" onClick={() => void mark(m, "archived")}>
                      {A.archive}
                    </Button>
                  ) : null}
                  <a className="text-sm text-brand underline" href={`mailto:${encodeURIComponent(m.email)}?subject=${encodeURIComponent(`Re: ${m.subject ?? ""}`)}`}>
                    {A.reply}
                  </a>
                </div>
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={data.pages} onPage={setPage} label={A.pagination} />
        </>
      )}
    </div>
  );
}
