"use client";

/**
 * The assistant tools of a judgment, self-contained: summary (with a length choice), key points,
 * argument analysis, precedents found from this judgment, and the recorded versions. Every answer shows its `mode`
 * (extractive / rules / model). `CollectionArguments` is the collection page's "Analyse arguments" for ≤ 5 selected.
 * Types come from lib/backend as types only; data comes through the web tier (/api).
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState, type ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { controlClass, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import type { Argument } from "@/lib/backend/assistants/argumentation";
import type { ArgumentationResponse, KeyPointsResponse, PrecedentsResponse, SummarizeResponse, VersionsResponse } from "@/lib/backend/responses";
import { ApiRequestError, apiFetch, errorMessage } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fieldLabel, matchingFactorLabel } from "@/lib/schema/labels";
import { fmt, formatDate, type Counted, type Locale, plural } from "@/lib/i18n/locale";

type Tab = "summary" | "keyPoints" | "arguments" | "precedents" | "versions";
type Length = "short" | "medium" | "long";
type Mode = "llm" | "extractive" | "rules";

const post = <T,>(path: string, json: unknown) => apiFetch<T>(path, { method: "POST", json });

/** The mode label every answer carries. */
function ModeBadge({ mode, model }: { mode: Mode; model: string | null }) {
  const { t } = useI18n();
  const s = t.assistantTools;
  const label = mode === "llm" ? fmt(s.modeLlm, { model: model ?? "" }) : mode === "rules" ? s.modeRules : s.modeExtractive;
  return (
    <p data-testid="assistant-mode" data-mode={mode}>
      <Badge tone={mode === "llm" ? "brand" : "neutral"}>{label}</Badge>
    </p>
  );
}

/** Loading / error (sign-in, quota, other) states of one tool. */
function Status({ pending, error }: { pending: boolean; error: unknown }) {
  const { t } = useI18n();
  if (pending) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label={t.assistantTools.loading}>
        <Skeleton className="h-5 w-full" />
        <Skeleton className="h-5 w-4/5" />
      </div>
    );
  }
  if (!error) return null;
  if (error instanceof ApiRequestError && error.status === 401) return <Notice>{t.assistantTools.signIn}</Notice>;
  if (error instanceof ApiRequestError && error.status === 429) return <Notice tone="warn">{t.assistantTools.rateLimited}</Notice>;
  return <Notice tone="danger">{errorMessage(error, t.common.unknownError)}</Notice>;
}

function List({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <p className="text-xs font-semibold uppercase text-muted">{title}</p>
      <ul className="ml-4 list-disc space-y-0.5">
        {items.map((x, i) => (
          <li key={i}>{x}</li>
        ))}
      </ul>
    </div>
  );
}

function ArgumentCard({ a }: { a: Argument }) {
  const { t } = useI18n();
  const s = t.assistantTools;
  const party = { prosecution: s.partyProsecution, defence: s.partyDefence, court: s.partyCourt, unknown: s.partyUnknown }[a.party];
  return (
    <li className="space-y-1 rounded-control border border-line p-3 text-sm">
      <p className="flex flex-wrap gap-2">
        <Badge>
          {s.party}: {party}
        </Badge>
        <Badge tone="brand">
          {s.pattern}: {t.analysis.judges.styleNames[a.reasoning_pattern]}
        </Badge>
        {a.strength ? (
          <Badge tone="ok">
            {s.strength}: {{ strong: s.strengthStrong, moderate: s.strengthModerate, weak: s.strengthWeak }[a.strength]}
          </Badge>
        ) : null}
      </p>
      <List title={s.factualPremises} items={a.factual_premises} />
      <List title={s.legalPremises} items={a.legal_premises} />
      <div>
        <p className="text-xs font-semibold uppercase text-muted">{s.conclusion}</p>
        <p>{a.conclusion}</p>
      </div>
      <List title={s.counterArguments} items={a.counter_arguments} />
      <List title={s.references} items={a.references} />
      {a.evidence?.length ? <p className="text-xs text-muted">{`${s.evidence}: ${a.evidence.join(" · ")}`}</p> : null}
    </li>
  );
}

/** The analyses of one argumentation answer (one judgment or several). */
function ArgumentationResult({ data }: { data: ArgumentationResponse }) {
  const { t } = useI18n();
  return (
    <div className="space-y-3" data-testid="argumentation-result">
      <ModeBadge mode={data.mode} model={data.model} />
      {data.analyses.map((d) => (
        <section key={d.document_id} className="space-y-2">
          {data.analyses.length > 1 ? (
            <h4 className="font-semibold">
              <Link className="text-brand" href={`/documents/${encodeURIComponent(d.document_id)}`}>
                {d.case_number ?? d.title ?? d.document_id}
              </Link>
            </h4>
          ) : null}
          <p className="text-sm">
            <span className="font-semibold">{t.assistantTools.overall}: </span>
            {d.overall}
          </p>
          {d.arguments.length === 0 ? (
            <p className="text-sm text-muted">{t.assistantTools.noArguments}</p>
          ) : (
            <ol className="space-y-2">
              {d.arguments.map((a, i) => (
                <ArgumentCard key={i} a={a} />
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  );
}

function DetailChoice({ value, onChange }: { value: "basic" | "detailed"; onChange: (v: "basic" | "detailed") => void }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <span className="inline-flex items-center gap-2">
      <Label htmlFor={id}>{t.assistantTools.detailLevel}</Label>
      <select id={id} className={controlClass} value={value} onChange={(e) => onChange(e.target.value === "detailed" ? "detailed" : "basic")}>
        <option value="basic">{t.assistantTools.detailBasic}</option>
        <option value="detailed">{t.assistantTools.detailDetailed}</option>
      </select>
    </span>
  );
}

function SummaryTool({ documentId }: { documentId: string }) {
  const { t } = useI18n();
  const s = t.assistantTools;
  const id = useId();
  const [length, setLength] = useState<Length>("medium");
  const m = useMutation({ mutationFn: (l: Length) => post<SummarizeResponse>("/api/documents/summarize", { document_id: documentId, length: l }) });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <span className="inline-flex items-center gap-2">
          <Label htmlFor={id}>{s.summaryLength}</Label>
          <select id={id} className={controlClass} value={length} onChange={(e) => setLength(e.target.value as Length)}>
            <option value="short">{s.lengthShort}</option>
            <option value="medium">{s.lengthMedium}</option>
            <option value="long">{s.lengthLong}</option>
          </select>
        </span>
        <Button size="sm" onClick={() => m.mutate(length)} disabled={m.isPending} data-testid="summarize">
          {s.summarize}
        </Button>
      </div>
      <Status pending={m.isPending} error={m.error} />
      {m.data ? (
        <div className="space-y-2" data-testid="summary-result">
          <ModeBadge mode={m.data.mode} model={m.data.model} />
          <p className="whitespace-pre-line text-sm leading-relaxed">{m.data.summary || s.empty}</p>
        </div>
      ) : null}
    </div>
  );
}

function KeyPointsTool({ documentId }: { documentId: string }) {
  const { t } = useI18n();
  const m = useMutation({ mutationFn: () => post<KeyPointsResponse>("/api/documents/key-points", { document_id: documentId }) });
  return (
    <div className="space-y-3">
      <Button size="sm" onClick={() => m.mutate()} disabled={m.isPending} data-testid="key-points">
        {t.assistantTools.keyPointsButton}
      </Button>
      <Status pending={m.isPending} error={m.error} />
      {m.data ? (
        <div className="space-y-2" data-testid="key-points-result">
          <ModeBadge mode={m.data.mode} model={m.data.model} />
          {m.data.key_points.length === 0 ? (
            <p className="text-sm text-muted">{t.assistantTools.empty}</p>
          ) : (
            <ul className="ml-4 list-disc space-y-1 text-sm">
              {m.data.key_points.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}

function ArgumentsTool({ documentIds }: { documentIds: string[] }) {
  const { t } = useI18n();
  const [detail, setDetail] = useState<"basic" | "detailed">("basic");
  const m = useMutation({
    mutationFn: (d: "basic" | "detailed") => post<ArgumentationResponse>("/api/argumentation/argumentation/analyze", { document_ids: documentIds, detail_level: d }),
  });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <DetailChoice value={detail} onChange={setDetail} />
        <Button size="sm" onClick={() => m.mutate(detail)} disabled={m.isPending || documentIds.length === 0 || documentIds.length > 5} data-testid="analyse-arguments">
          {documentIds.length > 1 ? fmt(t.assistantTools.analyseSelected, { count: documentIds.length }) : t.assistantTools.analyseArguments}
        </Button>
      </div>
      <Status pending={m.isPending} error={m.error} />
      {m.data ? <ArgumentationResult data={m.data} /> : null}
    </div>
  );
}

function PrecedentsTool({ documentId, defaultQuery }: { documentId: string; defaultQuery: string }) {
  const { locale, t } = useI18n();
  const s = t.assistantTools;
  const id = useId();
  const [query, setQuery] = useState(defaultQuery.slice(0, 5000));
  const tooShort = query.trim().length < 10;
  const m = useMutation({
    mutationFn: (q: string) => post<PrecedentsResponse>("/api/precedents/find", { query: q, document_id: documentId, limit: 10 }),
  });
  const n = (x: number) => x.toFixed(2);
  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <Label htmlFor={id}>{s.precedentsQuery}</Label>
        <Textarea id={id} rows={2} value={query} maxLength={5000} onChange={(e) => setQuery(e.target.value)} aria-invalid={tooShort || undefined} />
        {tooShort ? <p className="text-xs text-muted">{s.precedentsQueryShort}</p> : null}
      </div>
      <Button size="sm" onClick={() => m.mutate(query.trim())} disabled={m.isPending || tooShort} data-testid="find-precedents">
        {s.findPrecedents}
      </Button>
      <Status pending={m.isPending} error={m.error} />
      {m.data ? (
        <div className="space-y-2" data-testid="precedents-result">
          <ModeBadge mode={m.data.mode} model={m.data.model} />
          {m.data.results.length === 0 ? (
            <p className="text-sm text-muted">{s.empty}</p>
          ) : (
            <ol className="space-y-2 text-sm">
              {m.data.results.map((p) => (
                <li key={p.id} className="rounded-control border border-line p-2">
                  <Link className="font-medium text-brand" href={`/documents/${encodeURIComponent(p.id)}`}>
                    {p.case_number ?? p.title ?? p.id}
                  </Link>
                  <p className="text-xs text-muted">
                    {[p.court_name, formatDate(locale, p.decision_date)].filter(Boolean).join(" · ")} · {fmt(s.similarity, { value: n(p.similarity) })}
                    {p.relevance !== undefined ? ` · ${fmt(s.relevance, { value: n(p.relevance) })}` : ""} · {fmt(s.score, { value: n(p.score) })}
                  </p>
                  {p.matching_factors?.length ? <p className="text-xs">{`${s.factors}: ${p.matching_factors.map((f) => matchingFactorLabel(f, s.factorKinds, locale)).join(" · ")}`}</p> : null}
                  {p.explanation ? <p className="text-xs">{p.explanation}</p> : null}
                </li>
              ))}
            </ol>
          )}
        </div>
      ) : null}
    </div>
  );
}

function shortValue(v: unknown, locale: Locale, longLabel: Counted): string {
  if (v && typeof v === "object" && !Array.isArray(v) && "md5" in v && "length" in v) return plural(locale, Number((v as { length: unknown }).length), longLabel);
  if (v === null || v === undefined) return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

function VersionsTool({ documentId }: { documentId: string }) {
  const { locale, t } = useI18n();
  const s = t.assistantTools;
  const [before, setBefore] = useState<number | undefined>(undefined);
  const q = useQuery({
    queryKey: ["judgment-versions", documentId, before],
    queryFn: () => apiFetch<VersionsResponse>(`/api/documents/${encodeURIComponent(documentId)}/versions?limit=20${before ? `&before=${before}` : ""}`),
    retry: false,
  });
  return (
    <div className="space-y-3" data-testid="versions-result">
      <Status pending={q.isPending} error={q.error} />
      {q.data ? (
        q.data.versions.length === 0 ? (
          <p className="text-sm text-muted">{s.versionsEmpty}</p>
        ) : (
          <ol className="space-y-2 text-sm">
            {q.data.versions.map((v) => (
              <li key={v.id} className="rounded-control border border-line p-2">
                <p className="font-medium">
                  {formatDate(locale, v.changed_at)} · {fmt(s.versionChanged, { columns: v.changed_columns.map((c) => fieldLabel(c, locale)).join(", ") })}
                </p>
                <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
                  {v.changed_columns.map((c) => (
                    <VersionRow key={c} column={c} before={shortValue(v.old_values[c], locale, s.versionLong)} after={shortValue(v.new_values[c], locale, s.versionLong)} />
                  ))}
                </dl>
              </li>
            ))}
          </ol>
        )
      ) : null}
      {q.data?.next_before ? (
        <Button size="sm" variant="secondary" onClick={() => setBefore(q.data.next_before ?? undefined)}>
          {s.loadOlder}
        </Button>
      ) : null}
    </div>
  );
}

function VersionRow({ column, before, after }: { column: string; before: string; after: string }): ReactNode {
  const { locale, t } = useI18n();
  return (
    <>
      <dt title={column}>{fieldLabel(column, locale)}</dt>
      <dd className="break-words">
        {t.assistantTools.oldValue}: {before} → {t.assistantTools.newValue}: {after}
      </dd>
    </>
  );
}

/** The judgment page's panel. `defaultQuery` seeds the precedent question (e.g. the judgment's keywords). */
export function AssistantPanel({ documentId, defaultQuery = "" }: { documentId: string; defaultQuery?: string }) {
  const { t } = useI18n();
  const s = t.assistantTools;
  const [tab, setTab] = useState<Tab>("summary");
  const tabs: [Tab, string][] = [
    ["summary", s.tabSummary],
    ["keyPoints", s.tabKeyPoints],
    ["arguments", s.tabArguments],
    ["precedents", s.tabPrecedents],
    ["versions", s.tabVersions],
  ];
  const panelId = useId();
  return (
    <Card className="mt-6 space-y-3 p-4" data-testid="assistant-panel">
      <div>
        <h2 className="text-lg font-semibold">{s.heading}</h2>
        <p className="text-sm text-muted">{s.intro}</p>
      </div>
      <div className="flex flex-wrap gap-1" role="group" aria-label={s.heading}>
        {tabs.map(([key, label]) => (
          <Button key={key} size="sm" variant={tab === key ? "primary" : "secondary"} aria-pressed={tab === key} aria-controls={panelId} onClick={() => setTab(key)}>
            {label}
          </Button>
        ))}
      </div>
      <div id={panelId} aria-live="polite">
        {tab === "summary" ? <SummaryTool documentId={documentId} /> : null}
        {tab === "keyPoints" ? <KeyPointsTool documentId={documentId} /> : null}
        {tab === "arguments" ? <ArgumentsTool documentIds={[documentId]} /> : null}
        {tab === "precedents" ? <PrecedentsTool documentId={documentId} defaultQuery={defaultQuery} /> : null}
        {tab === "versions" ? <VersionsTool documentId={documentId} /> : null}
      </div>
    </Card>
  );
}

/** The collection page's "Analyse arguments" for the selected judgments (1-5). */
export function CollectionArguments({ documentIds }: { documentIds: string[] }) {
  const { t } = useI18n();
  if (documentIds.length === 0 || documentIds.length > 5) {
    return <p className="text-xs text-muted basis-full">{t.assistantTools.analyseSelectedHint}</p>;
  }
  return (
    <div className="basis-full" data-testid="collection-arguments">
      <ArgumentsTool key={documentIds.join(",")} documentIds={documentIds} />
    </div>
  );
}
