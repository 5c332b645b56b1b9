"use client";

import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { unsubscribe } from "@/lib/client/accounts-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

/** The page a digest's unsubscribe link opens: one button (a POST), so a mail scanner fetching the link changes nothing. */
export function UnsubscribeForm({ token }: { token: string }) {
  const { t } = useI18n();
  const s = t.accounts.unsubscribe;
  const run = useMutation({ mutationFn: () => unsubscribe(token) });
  if (!token) return <Notice tone="danger">{s.invalid}</Notice>;
  if (run.isSuccess) return <Notice tone="ok">{fmt(s.done, { name: run.data.name })}</Notice>;
  return (
    <div className="space-y-3">
      <p>{s.lead}</p>
      <Button onClick={() => run.mutate()} disabled={run.isPending}>
        {s.button}
      </Button>
      {run.isError ? <Notice tone="danger">{s.invalid}</Notice> : null}
    </div>
  );
}
