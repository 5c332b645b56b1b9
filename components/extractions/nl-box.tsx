"use client";

import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError, apiFetch } from "@/lib/client/api";
import { nlFilter, nlPreview } from "@/lib/client/extractions-api";
import { NL_MAX } from "@/lib/client/extraction-url-state";
import { normaliseFilter, toApiFilter, type PageFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural, type Locale } from "@/lib/i18n/locale";
import { describeValue } from "./filter-chips";
import { keyLabel } from "./registry-view";

/** What the NL box hands to the page: the proposal as it stands (chips the reader dropped are gone). */
export interface NlFilled {
  filter: PageFilter;
  textQuery: string | null;
  question: string;
}

/** The preview route names the text chip by this key (lib/backend/extractions/nl-preview.ts, TEXT_CHIP). */
const TEXT_CHIP = "text_query";

/**
 * Natural-language question → a proposed filter shown as removable chips, with the number of judgments it matches
 * counted before anything is applied (spec: nl-filter "only pre-fills a filter and never runs a search"; the count
 * preview is its own request). When the proposal matches nothing, the box says which chip emptied it (the count with
 * each chip dropped) and offers to drop it. The reader then shows the results or edits the proposal in the drawer.
 * Shown with or without a model; the label says which mode answered (or will answer).
 */
export function NlBox({
  initial,
  onFilled,
  onApply,
  llmEnabled,
}: {
  initial: string;
  /** "Edit in the filter panel": the proposal goes into the drawer's draft for review. */
  onFilled: (r: NlFilled) => void;
  /** "Show these results": the proposal becomes the page's filter and text query. */
  onApply: (r: NlFilled) => void;
  /** Whether the server has a model (the page knows it); the live status and then the response's `mode` refine it. */
  llmEnabled?: boolean;
}) {
  const { t, locale } = useI18n();
  const [text, setText] = useState(initial);
  // Which mode will answer, before the first question (the response's own `mode` wins afterwards).
  const status = useQuery({
    queryKey: ["llm-status"],
    queryFn: () => apiFetch<{ configured: boolean; model?: string | null }>("/api/llm/status"),
    staleTime: 60_000,
  });
  const [answered, setAnswered] = useState<"llm" | "rules" | null>(null);
  const [proposal, setProposal] = useState<NlFilled | null>(null);
  const run = useMutation({
    mutationFn: async (question: string) => {
      const res = await nlFilter(question);
      const filter = normaliseFilter(res.filters);
      if (!filter) throw new ApiRequestError(422, "NL_FILTER_INVALID", "", {});
      return { filter, textQuery: res.text_query, question, mode: res.mode };
    },
    onSuccess: ({ mode, ...filled }) => {
      setAnswered(mode);
      setProposal(filled);
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
    <div className="space-y-3">
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
          {mode === "rules" ? ` ${t.nlBox.rulesHint}` : ""}
        </p>
        {modeLabel ? (
          <p className="text-xs text-muted" data-testid="nl-mode" data-mode={mode ?? undefined} aria-live="polite">
            {modeLabel}
          </p>
        ) : null}
        {error ? <Notice tone="danger">{error}</Notice> : null}
      </form>
      {proposal ? <Proposal key={proposal.question} proposal={proposal} onChange={setProposal} onApply={onApply} onReview={onFilled} locale={locale} /> : null}
    </div>
  );
}

function Proposal({
  proposal,
  onChange,
  onApply,
  onReview,
  locale,
}: {
  proposal: NlFilled;
  onChange: (p: NlFilled) => void;
  onApply: (p: NlFilled) => void;
  onReview: (p: NlFilled) => void;
  locale: Locale;
}) {
  const { t } = useI18n();
  const apiFilter = toApiFilter(proposal.filter);
  const preview = useQuery({
    queryKey: ["nl-preview", apiFilter, proposal.textQuery],
    queryFn: ({ signal }) => nlPreview(apiFilter, proposal.textQuery, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

  const chips: { id: string; label: string }[] = [
    ...Object.keys(proposal.filter).map((k) => ({ id: k, label: `${keyLabel(k, locale)}: ${describeValue(k, proposal.filter[k], locale, t)}` })),
    ...(proposal.textQuery ? [{ id: TEXT_CHIP, label: fmt(t.nlBox.textChip, { text: proposal.textQuery }) }] : []),
  ];
  const labelOf = (id: string) => chips.find((c) => c.id === id)?.label ?? id;
  const drop = (id: string) => {
    if (id === TEXT_CHIP) onChange({ ...proposal, textQuery: null });
    else onChange({ ...proposal, filter: Object.fromEntries(Object.entries(proposal.filter).filter(([k]) => k !== id)) });
  };

  const data = preview.data;
  // Chips whose removal alone brings judgments back, most first: the one that emptied the list leads.
  const culprits = (data?.without ?? []).filter((w) => w.total > 0 && chips.some((c) => c.id === w.chip)).sort((a, b) => b.total - a.total);

  return (
    <section aria-label={t.nlBox.proposal} className="space-y-2 rounded-card border border-line p-3" data-testid="nl-proposal">
      <h3 className="text-sm font-medium">{t.nlBox.proposal}</h3>
      {chips.length === 0 ? (
        <p className="text-sm text-muted">{t.nlBox.nothingRead}</p>
      ) : (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t.nlBox.proposal}>
          {chips.map((c) => (
            <span
              key={c.id}
              data-nl-chip={c.id}
              className="inline-flex max-w-full items-center gap-1 rounded-full border border-brand/30 bg-brand-soft py-0.5 pr-1 pl-3 text-sm text-brand"
            >
              <span className="truncate">{c.label}</span>
              <button
                type="button"
                onClick={() => drop(c.id)}
                aria-label={fmt(t.extr.removeChip, { label: c.label })}
                className="grid size-6 place-items-center rounded-full hover:bg-brand hover:text-on-brand"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2.2">
                  <path d="m6 6 8 8M14 6l-8 8" />
                </svg>
              </button>
            </span>
          ))}
        </div>
      )}

      <div aria-live="polite" data-testid="nl-count" data-count={data && !preview.isPlaceholderData ? data.total : undefined}>
        {preview.error ? (
          <Notice tone="danger">{fmt(t.nlBox.countError, { message: preview.error instanceof Error ? preview.error.message : "" })}</Notice>
        ) : !data || preview.isPlaceholderData ? (
          <p className="text-sm text-muted">{t.nlBox.counting}</p>
        ) : data.total > 0 ? (
          <p className="text-sm font-medium">{plural(locale, data.total, t.nlBox.matches)}</p>
        ) : (
          <Notice tone="warn" title={t.nlBox.none}>
            {culprits.length > 0 ? (
              <ul className="mt-1 space-y-1">
                {culprits.map((c) => (
                  <li key={c.chip} data-testid="nl-culprit" data-chip={c.chip} className="flex flex-wrap items-center gap-2">
                    <span>{fmt(t.nlBox.emptiedBy, { label: labelOf(c.chip), matches: plural(locale, c.total, t.nlBox.withoutMatches) })}</span>
                    <Button size="sm" variant="secondary" onClick={() => drop(c.chip)} aria-label={fmt(t.nlBox.dropNamedChip, { label: labelOf(c.chip) })}>
                      {t.nlBox.dropChip}
                    </Button>
                  </li>
                ))}
              </ul>
            ) : chips.length > 0 ? (
              <p>{t.nlBox.noSingleCulprit}</p>
            ) : null}
          </Notice>
        )}
      </div>

      <div className="flex flex-wrap gap-2">
        <Button onClick={() => onApply(proposal)} data-testid="nl-apply">
          {t.nlBox.apply}
        </Button>
        <Button variant="secondary" onClick={() => onReview(proposal)}>
          {t.nlBox.review}
        </Button>
      </div>
    </section>
  );
}
