"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError, apiFetch } from "@/lib/client/api";
import { nlFilter } from "@/lib/client/extractions-api";
import { NL_MAX } from "@/lib/client/extraction-url-state";
import { normaliseFilter, type PageFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

/**
 * Natural-language question → a pre-filled filter for review (spec: nl-filter "only pre-fills a filter and never runs
 * a search"): the result goes into the drawer's draft; the reader applies it. Shown with or without a model:
 * without one the server's rules translator answers; the label says which mode answered (or will answer).
 */
export function NlBox({
  initial,
  onFilled,
  llmEnabled,
}: {
  initial: string;
  onFilled: (r: { filter: PageFilter; textQuery: string | null; question: string }) => void;
  /** Whether the server has a model (the page knows it); the live status and then the response's `mode` refine it. */
  llmEnabled?: boolean;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(initial);
  // Which mode will answer, before the first question (the response's own `mode` wins afterwards).
  const status = useQuery({
    queryKey: ["llm-status"],
    queryFn: () => apiFetch<{ configured: boolean; model?: string | null }>("/api/llm/status"),
    staleTime: 60_000,
  });
  const [answered, setAnswered] = useState<"llm" | "rules" | null>(null);
  const run = useMutation({
    mutationFn: async (question: string) => {
      const res = await nlFilter(question);
      const filter = normaliseFilter(res.filters);
      if (!filter) throw new ApiRequestError(422, "NL_FILTER_INVALID", "", {});
      return { filter, textQuery: res.text_query, question, mode: res.mode };
    },
    onSuccess: ({ mode, ...filled }) => {
      setAnswered(mode);
      onFilled(filled);
    },
  });
  const configured = status.data?.configured ?? llmEnabled;
  const mode = answered ?? (configured === undefined ? null : configured ? "llm" : "rules");
  const modeLabel =
    mode === "rules" ? t.assistants.modeRules : mode === "llm" ? fmt(t.assistants.modeLlm, { model: status.data?.model ?? t.extr.nlModelUnnamed }) : null;
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
        {mode === "rules" ? ` ${t.extr.nlRulesHint}` : ""}
      </p>
      {modeLabel ? (
        <p className="text-xs text-muted" data-testid="nl-mode" data-mode={mode ?? undefined} aria-live="polite">
          {modeLabel}
        </p>
      ) : null}
      {error ? <Notice tone="danger">{error}</Notice> : null}
    </form>
  );
}
