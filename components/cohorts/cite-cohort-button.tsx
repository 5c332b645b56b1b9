"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { citeCohort, type CreatedCohort } from "@/lib/client/cohorts-api";
import type { ApiFilter } from "@/lib/client/filter-codec";
import type { Messages } from "@/lib/i18n/en";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, plural, type Locale } from "@/lib/i18n/locale";

function explain(err: unknown, t: Messages, locale: Locale): string {
  if (err instanceof ApiRequestError && err.code === "FILTER_TOO_LARGE") {
    const total = Number(err.detail.total);
    const cap = Number(err.detail.cap);
    return plural(locale, Number.isFinite(total) ? total : 0, t.cohorts.cite.tooLarge, { cap: Number.isFinite(cap) ? formatNumber(locale, cap) : "?" });
  }
  return fmt(t.cohorts.cite.failed, { message: err instanceof Error ? err.message : t.common.unknownError });
}

/**
 * "Cite this cohort" on /search/extractions: stores the current filter (and text query, and the sample seed when the
 * page has one) and shows the permanent /c/{id} link.
 */
export function CiteCohortButton({ filters, textQuery, seed, disabled }: { filters: ApiFilter; textQuery: string; seed?: number; disabled?: boolean }) {
  const { locale, t } = useI18n();
  const c = t.cohorts.cite;
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const cite = useMutation({
    mutationFn: () => citeCohort({ filters, ...(textQuery.trim() ? { text_query: textQuery.trim() } : {}), ...(seed !== undefined ? { seed } : {}) }),
  });
  const done: CreatedCohort | undefined = cite.data;
  const link = done ? (done.url.startsWith("/") ? new URL(done.url, window.location.origin).toString() : done.url) : "";

  function change(o: boolean) {
    if (o) {
      cite.reset();
      setCopied(false);
    }
    setOpen(o);
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => change(true)} disabled={disabled} data-testid="cite-cohort">
        {c.button}
      </Button>
      <DialogRoot open={open} onOpenChange={change}>
        <DialogContent title={c.title}>
          <div className="space-y-4">
            <p className="text-sm text-muted">{c.lead}</p>
            {cite.isError ? <Notice tone="danger">{explain(cite.error, t, locale)}</Notice> : null}
            {done ? (
              <div className="space-y-3" data-testid="cite-done">
                <Notice tone="ok">{plural(locale, done.members_count, c.done)}</Notice>
                <div>
                  <Label htmlFor="cite-link">{c.link}</Label>
                  <Input id="cite-link" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
                </div>
                <div className="flex flex-wrap justify-end gap-2">
                  <Button
                    variant="secondary"
                    onClick={() => {
                      void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => undefined);
                    }}
                  >
                    {copied ? c.copied : c.copy}
                  </Button>
                  <Link href={`/c/${encodeURIComponent(done.id)}`} className={buttonClass("primary")}>
                    {c.open}
                  </Link>
                </div>
              </div>
            ) : (
              <div className="flex justify-end gap-2">
                <Button variant="secondary" onClick={() => change(false)}>
                  {t.common.cancel}
                </Button>
                <Button onClick={() => cite.mutate()} disabled={cite.isPending}>
                  {cite.isPending ? c.creating : c.create}
                </Button>
              </div>
            )}
          </div>
        </DialogContent>
      </DialogRoot>
    </>
  );
}
