"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { nlFilter } from "@/lib/client/extractions-api";
import { NL_MAX } from "@/lib/client/extraction-url-state";
import { normaliseFilter, type PageFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

/**
 * Natural-language question → a pre-filled filter for review (spec: nl-filter "only pre-fills a filter and never runs
 * a search"): the result goes into the drawer's draft; the reader applies it.
 */
export function NlBox({ initial, onFilled }: { initial: string; onFilled: (r: { filter: PageFilter; textQuery: string | null; question: string }) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState(initial);
  const run = useMutation({
    mutationFn: async (question: string) => {
      const res = await nlFilter(question);
      const filter = normaliseFilter(res.filters);
      if (!filter) throw new ApiRequestError(422, "NL_FILTER_INVALID", "", {});
      return { filter, textQuery: res.text_query, question };
    },
    onSuccess: onFilled,
  });
  const error =
    run.error instanceof ApiRequestError && run.error.code === "NL_FILTER_INVALID"
      ? t.extr.nlInvalid
      : run.error
        ? fmt(t.extr.nlError, { message: run.error instanceof Error ? run.error.message : "" })
        : null;
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) run.mutate(text.trim().slice(0, NL_MAX));
      }}
    >
      <label htmlFor="nl-q" className="text-sm font-medium">
        {t.extr.nlLabel}
      </label>
      <div className="flex gap-2">
        <Input id="nl-q" maxLength={NL_MAX} value={text} placeholder={t.extr.nlPlaceholder} onChange={(e) => setText(e.target.value)} aria-describedby="nl-hint" />
        <Button type="submit" variant="secondary" disabled={run.isPending || !text.trim()}>
          {run.isPending ? t.extr.nlWorking : t.extr.nlSubmit}
        </Button>
      </div>
      <p id="nl-hint" className="text-xs text-muted">
        {t.extr.nlHint}
      </p>
      {error ? <Notice tone="danger">{error}</Notice> : null}
    </form>
  );
}
