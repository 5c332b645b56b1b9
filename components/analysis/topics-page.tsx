"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, FieldHint, Input, Label, controlClass } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { cx } from "@/components/ui/cx";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import { localizedResolver } from "@/lib/client/validation";
import { analyzeTopics, getTopicRun, listTopicRuns, recordTopicClick, topicSearchHref, type TopicRunResponse } from "@/lib/client/topics-api";
import { useI18n } from "@/lib/i18n/client";
import type { Messages } from "@/lib/i18n/en";
import { fmt, formatDate, formatNumber, plural } from "@/lib/i18n/locale";
import { TOPIC_RUN_DEFAULTS, TopicRunFieldsSchema } from "@/lib/schema/requests/topics-form";
import { TREND_TONE } from "./trend";
import { TrendingTopics } from "./trending-topics";

// recharts loads with the first result, not with the page.
const KeywordChart = dynamic(() => import("./topic-charts").then((m) => m.KeywordChart), { ssr: false, loading: () => <Skeleton className="h-40 w-full" /> });
const TrendChart = dynamic(() => import("./topic-charts").then((m) => m.TrendChart), { ssr: false, loading: () => <Skeleton className="h-36 w-full" /> });

type FormIn = z.input<typeof TopicRunFieldsSchema>;
type FormOut = z.output<typeof TopicRunFieldsSchema>;
type Topic = TopicRunResponse["topics"][number];

function explain(err: unknown, t: Messages): string {
  const T = t.analysis.topics;
  if (err instanceof ApiRequestError && err.status === 429) {
    const seconds = Number(err.detail.retry_after);
    return fmt(T.quota, { minutes: Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds / 60)) : 60 });
  }
  return fmt(T.failed, { message: errorMessage(err, t.common.unknownError) });
}

/** /topics: trending topics, the run form, the caller's runs and the topics of the run shown. */
export function TopicsPage() {
  const { t } = useI18n();
  const T = t.analysis.topics;
  const qc = useQueryClient();
  const [run, setRun] = useState<TopicRunResponse | null>(null);
  const runs = useQuery({ queryKey: ["topic-runs"], queryFn: () => listTopicRuns(10) });
  const analyze = useMutation({
    mutationFn: analyzeTopics,
    onSuccess: (r) => {
      setRun(r);
      void qc.invalidateQueries({ queryKey: ["topic-runs"] });
      void qc.invalidateQueries({ queryKey: ["topics-trending"] });
    },
  });
  const show = useMutation({ mutationFn: getTopicRun, onSuccess: setRun });

  return (
    <div className="space-y-8">
      <p className="text-sm text-muted">
        {T.lead} <Badge tone="brand">{T.mode}</Badge>
      </p>
      <TrendingTopics limit={10} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <div className="space-y-6">
          <RunForm pending={analyze.isPending} onRun={(v) => analyze.mutate(v)} />
          {analyze.isError ? <Notice tone="danger">{explain(analyze.error, t)}</Notice> : null}
          <RunHistory runs={runs} onShow={(id) => show.mutate(id)} />
          {show.isError ? <Notice tone="danger">{explain(show.error, t)}</Notice> : null}
        </div>
        <div className="min-w-0" aria-live="polite" aria-busy={analyze.isPending}>
          {analyze.isPending ? (
            <div className="space-y-3">
              <p className="text-sm text-muted">{T.running}</p>
              <Skeleton className="h-48 w-full" />
              <Skeleton className="h-48 w-full" />
            </div>
          ) : run ? (
            <RunResult run={run} />
          ) : null}
        </div>
      </div>
    </div>
  );
}

function RunForm({ pending, onRun }: { pending: boolean; onRun: (v: FormOut) => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const T = t.analysis.topics;
  const labels = { sample_size: T.sampleSize, num_topics: T.numTopics, num_keywords: T.numKeywords, time_periods: T.timePeriods, jurisdiction: T.jurisdiction, seed: T.seed };
  const form = useForm<FormIn, unknown, FormOut>({ resolver: localizedResolver(TopicRunFieldsSchema, i18n, labels), defaultValues: { ...TOPIC_RUN_DEFAULTS } });
  const errors = form.formState.errors;
  const num = (name: "sample_size" | "num_topics" | "num_keywords" | "time_periods" | "seed", label: string, hint: string, range?: [number, number]) => (
    <div>
      <Label htmlFor={`topics-${name}`}>{label}</Label>
      <Input
        id={`topics-${name}`}
        type="number"
        inputMode="numeric"
        step={1}
        min={range?.[0]}
        max={range?.[1]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`topics-${name}-hint${errors[name] ? ` topics-${name}-error` : ""}`}
        {...form.register(name, { valueAsNumber: true })}
      />
      <FieldHint id={`topics-${name}-hint`}>{hint}</FieldHint>
      <FieldError id={`topics-${name}-error`}>{errors[name] ? errors[name]?.message : null}</FieldError>
    </div>
  );
  return (
    <Card className="p-4">
      <h2 className="mb-3 text-lg font-semibold">{T.formTitle}</h2>
      <form noValidate className="space-y-3" onSubmit={form.handleSubmit(onRun)}>
        {num("sample_size", T.sampleSize, T.sampleSizeHint, [20, 2000])}
        <div className="grid grid-cols-2 gap-3">
          {num("num_topics", T.numTopics, T.numTopicsHint, [2, 30])}
          {num("num_keywords", T.numKeywords, T.numKeywordsHint, [3, 15])}
        </div>
        {num("time_periods", T.timePeriods, T.timePeriodsHint, [2, 12])}
        <div>
          <Label htmlFor="topics-jurisdiction">{T.jurisdiction}</Label>
          <select
            id="topics-jurisdiction"
            className={cx(controlClass, "h-10")}
            {...form.register("jurisdiction", { setValueAs: (v: unknown) => (v === "PL" || v === "UK" ? [v] : Array.isArray(v) ? v : undefined) })}
          >
            <option value="">{T.jurisdictionAll}</option>
            <option value="PL">{t.common.jurisdiction.PL}</option>
            <option value="UK">{t.common.jurisdiction.UK}</option>
          </select>
        </div>
        {num("seed", T.seed, T.seedHint)}
        {Object.keys(errors).length > 0 ? <p className="text-sm text-danger">{T.invalid}</p> : null}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? T.running : T.run}
        </Button>
      </form>
    </Card>
  );
}

function RunHistory({ runs, onShow }: { runs: ReturnType<typeof useQuery<Awaited<ReturnType<typeof listTopicRuns>>>>; onShow: (id: string) => void }) {
  const { locale, t } = useI18n();
  const T = t.analysis.topics;
  return (
    <section aria-labelledby="topic-runs-h">
      <h2 id="topic-runs-h" className="mb-2 text-base font-semibold">
        {T.historyTitle}
      </h2>
      {runs.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : runs.isError ? (
        <Notice tone="danger">{errorMessage(runs.error, t.common.unknownError)}</Notice>
      ) : runs.data.runs.length === 0 ? (
        <p className="text-sm text-muted">{T.historyEmpty}</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {runs.data.runs.map((r) => (
            <li key={r.run_id} className="flex items-center justify-between gap-2">
              <span className="text-muted">
                {fmt(T.historyItem, { date: formatDate(locale, r.created_at), topics: plural(locale, r.topic_count, T.topicsCount), sample: formatNumber(locale, r.params.sample_size), seed: r.params.seed })}
              </span>
              <Button variant="ghost" size="sm" onClick={() => onShow(r.run_id)}>
                {T.show}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RunResult({ run }: { run: TopicRunResponse }) {
  const { locale, t } = useI18n();
  const T = t.analysis.topics;
  return (
    <section aria-labelledby="topic-result-h" className="space-y-4" data-testid="topic-result">
      <div>
        <h2 id="topic-result-h" className="text-lg font-semibold">
          {T.resultTitle}
        </h2>
        <p className="text-sm text-muted">
          {fmt(T.resultMeta, {
            topics: plural(locale, run.topics.length, T.topicsCount),
            documents: formatNumber(locale, run.model.documents),
            corpus: plural(locale, run.corpus_size, T.corpusCount),
            periods: plural(locale, run.periods.length, T.periodsCount),
            ms: formatNumber(locale, run.computed_ms),
          })}
        </p>
        <p className="text-xs text-subtle">{fmt(T.runId, { id: run.run_id })}</p>
      </div>
      {run.topics.length === 0 ? (
        <p className="rounded-card border border-dashed border-line-strong p-6 text-center text-muted">{T.noTopics}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {run.topics.map((topic) => (
            <li key={topic.id}>
              <TopicCard topic={topic} runId={run.run_id} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function TopicCard({ topic, runId }: { topic: Topic; runId: string }) {
  const { locale, t } = useI18n();
  const T = t.analysis.topics;
  const terms = topic.keywords.map((k) => k.term);
  return (
    <Card className="flex h-full min-w-0 flex-col gap-3 p-4" data-testid="topic-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="font-semibold text-ink">{topic.label}</h3>
        <Badge tone={TREND_TONE[topic.trend]}>
          {T.trend[topic.trend]} · {fmt(T.slope, { value: topic.slope.toFixed(2) })}
        </Badge>
      </div>
      <p className="text-xs text-muted">
        {plural(locale, topic.size, T.size)} · {fmt(T.coherence, { value: topic.coherence.toFixed(2) })}
      </p>
      <KeywordChart keywords={topic.keywords} title={fmt(T.keywordsChart, { label: topic.label })} />
      {topic.weights_by_period.length > 1 ? <TrendChart points={topic.weights_by_period} title={fmt(T.trendChart, { label: topic.label })} /> : null}
      <div>
        <h4 className="text-sm font-medium">{T.samples}</h4>
        <ol className="mt-1 space-y-1 text-sm">
          {topic.sample_documents.map((d) => (
            <li key={d.id} className="truncate">
              <Link href={`/documents/${encodeURIComponent(d.id)}`} className="text-brand hover:underline">
                {d.case_number ?? d.id}
              </Link>
              {d.title ? <span className="text-muted"> · {d.title}</span> : null}
            </li>
          ))}
        </ol>
      </div>
      <Link
        href={topicSearchHref(terms)}
        onClick={() => recordTopicClick(`${runId}_${topic.id}`)}
        className="mt-auto text-sm font-medium text-brand underline"
      >
        {T.searchLink}: {terms.slice(0, 3).join(" ")}
      </Link>
    </Card>
  );
}
