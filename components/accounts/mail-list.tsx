"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { listMail } from "@/lib/client/accounts-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate } from "@/lib/i18n/locale";

const PAGE = 20;

/** /admin/mail: the local SMTP server's messages, newest first; each opens to its plain-text body. */
export function MailList() {
  const { locale, t } = useI18n();
  const s = t.accounts.mail;
  const [offset, setOffset] = useState(0);
  const mail = useQuery({ queryKey: ["admin-mail", offset], queryFn: () => listMail({ limit: PAGE, offset }) });
  if (mail.isPending) return <Skeleton className="h-40" aria-label={s.loading} />;
  if (mail.isError) return <Notice tone="danger">{fmt(s.error, { message: mail.error.message })}</Notice>;
  if (mail.data.messages.length === 0) return <p className="text-muted">{s.empty}</p>;
  return (
    <div className="space-y-3">
      <ul className="space-y-3">
        {mail.data.messages.map((m) => (
          <li key={m.id}>
            <Card className="p-4" data-testid="mail-message">
              <details>
                <summary className="cursor-pointer">
                  <span className="font-semibold">{m.subject ?? "—"}</span>
                  <span className="ml-2 text-sm text-muted">
                    {s.to}: {m.rcpt_to.join(", ")} · {s.received}: {formatDate(locale, m.received_at)}
                  </span>
                </summary>
                <p className="mt-2 text-sm text-muted">
                  {s.from}: {m.mail_from ?? "—"}
                </p>
                {/* Plain text only: a received HTML body is never rendered into the admin's page. */}
                <pre className="mt-2 max-h-96 overflow-auto text-sm whitespace-pre-wrap">{m.text_body ?? ""}</pre>
              </details>
            </Card>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          {t.accounts.saved.previous}
        </Button>
        <Button variant="secondary" size="sm" disabled={!mail.data.has_more} onClick={() => setOffset(offset + PAGE)}>
          {t.accounts.saved.next}
        </Button>
      </div>
    </div>
  );
}
