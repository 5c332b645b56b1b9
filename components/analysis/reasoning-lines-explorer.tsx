"use client";

/**
 * /reasoning-lines: the lines (search, a timeline per line), the DAG drawn as an SVG graph (older lines left, arrows to
 * newer ones), and for administrators: discover candidates and save one, detect events, drift and outcome analysis,
 * delete (a status: members and events are kept).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import {
  analyzeOutcomes,
  createLine,
  deleteLine,
  detectEvents,
  discoverLines,
  driftAnalysis,
  linesDag,
  lineTimeline,
  listLines,
  searchLines,
  type ReasoningLine,
} from "@/lib/client/analysis-lines-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";
import { DiscoverFieldsSchema } from "@/lib/schema/requests/analysis-lines";

function Timeline({ id, includeDeleted }: { id: string; includeDeleted: boolean }) {
  const { locale, t } = useI18n();
  const tl = t.analysis.lines;
  const q = useQuery({ queryKey: ["line-timeline", id, includeDeleted], queryFn: () => lineTimeline(id, includeDeleted) });
  if (q.isPending) return <Skeleton className="h-24 w-full" />;
  if (q.isError) return <Notice tone="danger">{fmt(tl.loadError, { message: errorMessage(q.error, t.common.unknownError) })}</Notice>;
  return (
    <ol className="mt-2 space-y-1 border-l-2 border-line pl-3 text-sm" aria-label={tl.timeline}>
      {q.data.entries.map((e, i) => (
        <li key={i}>
          <span className="tabular-nums text-muted">{e.date ? formatDate(locale, e.date) : "—"}</span>{" "}
          {e.member ? (
            <>
              <Link className="text-brand hover:underline" href={`/documents/${encodeURIComponent(e.member.judgment_id)}`}>
                {e.member.case_number ?? e.member.judgment_id}
              </Link>{" "}
              <span className="text-muted">
                ({tl.roles[e.member.role]}
                {e.member.similarity !== null ? `, ${fmt(tl.similarity, { value: e.member.similarity.toFixed(2) })}` : ""})
              </span>
            </>
          ) : e.event ? (
            <strong>{tl.eventKinds[e.event.kind]}</strong>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** Nodes in date order left to right, in three lanes; edges as arrows (the graph is acyclic by construction). */
function Dag() {
  const { t } = useI18n();
  const tl = t.analysis.lines;
  const q = useQuery({ queryKey: ["lines-dag"], queryFn: linesDag });
  if (q.isPending) return <Skeleton className="h-40 w-full" />;
  if (q.isError) return <Notice tone="danger">{fmt(tl.loadError, { message: errorMessage(q.error, t.common.unknownError) })}</Notice>;
  const nodes = [...q.data.nodes].sort((a, b) => `${a.first_date}|${a.id}`.localeCompare(`${b.first_date}|${b.id}`));
  if (nodes.length === 0) return <p className="text-sm text-muted">{tl.empty}</p>;
  const W = 170;
  const H = 70;
  const pos = new Map(nodes.map((n, i) => [n.id, { x: 10 + i * W, y: 10 + (i % 3) * H }]));
  const width = 20 + nodes.length * W;
  return (
    <figure aria-label={tl.dag}>
      <div className="overflow-x-auto">
        <svg width={width} height={20 + 3 * H} role="img" aria-label={tl.dag}>
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill="var(--color-muted, #666)" />
            </marker>
          </defs>
          {q.data.edges.map((e) => {
            const s = pos.get(e.source);
            const d = pos.get(e.target);
            if (!s || !d) return null;
            return (
              <line key={`${e.source}>${e.target}`} x1={s.x + 150} y1={s.y + 22} x2={d.x} y2={d.y + 22} stroke="var(--color-muted, #666)" strokeWidth={1 + Math.min(3, e.cites + e.shared_members) / 2} markerEnd="url(#arrow)">
                <title>{`cites ${e.cites}, shared ${e.shared_members}`}</title>
              </line>
            );
          })}
          {nodes.map((n) => {
            const p = pos.get(n.id)!;
            return (
              <g key={n.id} data-line-node={n.id}>
                <rect x={p.x} y={p.y} width={150} height={44} rx={6} fill="var(--color-brand-soft, #eef)" stroke="var(--color-brand, #336)" />
                <text x={p.x + 8} y={p.y + 18} fontSize={12} fill="currentColor">
                  {n.label.length > 22 ? `${n.label.slice(0, 21)}…` : n.label}
                </text>
                <text x={p.x + 8} y={p.y + 34} fontSize={10} fill="currentColor" opacity={0.7}>
                  {`${n.first_date ?? "—"} · ${n.member_count}`}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="text-xs text-muted">{q.data.edges.length === 0 ? tl.dagEmpty : tl.dagLegend}</figcaption>
    </figure>
  );
}

function AdminLineTools({ line, onChanged }: { line: ReasoningLine; onChanged: () => void }) {
  const { t } = useI18n();
  const tl = t.analysis.lines;
  const drift = useMutation({ mutationFn: () => driftAnalysis(line.id) });
  const outcomes = useMutation({ mutationFn: () => analyzeOutcomes(line.id) });
  const remove = useMutation({ mutationFn: () => deleteLine(line.id), onSuccess: onChanged });
  const failed = drift.error ?? outcomes.error ?? remove.error;
  return (
    <div className="mt-2 space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => drift.mutate()} disabled={drift.isPending}>
          {tl.drift}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => outcomes.mutate()} disabled={outcomes.isPending}>
          {tl.outcomes}
        </Button>
        <Button
          size="sm"
          variant="danger"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(fmt(tl.deleteConfirm, { label: line.label }))) remove.mutate();
          }}
        >
          {tl.deleteLine}
        </Button>
      </div>
      {failed ? <Notice tone="danger">{errorMessage(failed, t.common.unknownError)}</Notice> : null}
      {drift.data ? (
        <p className="text-sm text-muted">
          {drift.data.series.filter((p) => p.drift).length} / {drift.data.series.length} · mean {drift.data.mean ?? "—"} · sd {drift.data.sd ?? "—"} · {tl.noModel}
        </p>
      ) : null}
      {outcomes.data ? (
        <div className="text-sm">
          <ul className="text-muted">
            {outcomes.data.by_year.map((y) => (
              <li key={y.year}>
                {y.year}: {y.outcomes.map((o) => `${o.value} ${o.count}`).join(", ") || "—"}
              </li>
            ))}
          </ul>
          {outcomes.data.summary ? <p>{outcomes.data.summary}</p> : <p className="text-xs text-muted">{tl.noModel}</p>}
        </div>
      ) : null}
    </div>
  );
}

function Discover({ onSaved }: { onSaved: () => void }) {
  const { locale, t } = useI18n();
  const tl = t.analysis.lines;
  const [form, setForm] = useState({ sample_size: "200", num_clusters: "6", seed: "42", text_query: "" });
  const [formError, setFormError] = useState<string | null>(null);
  const run = useMutation({ mutationFn: discoverLines });
  const save = useMutation({ mutationFn: createLine, onSuccess: onSaved });
  const field = (k: keyof typeof form, label: string) => (
    <div className="basis-32">
      <Label htmlFor={`discover-${k}`}>{label}</Label>
      <Input id={`discover-${k}`} value={form[k]} onChange={(e) => setForm({ ...form, [k]: e.target.value })} inputMode={k === "text_query" ? undefined : "numeric"} />
    </div>
  );
  return (
    <section className="space-y-3">
      <h3 className="font-semibold">{tl.discoverTitle}</h3>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          // The API's schema validates the form, so the page refuses exactly what the route would.
          const parsed = DiscoverFieldsSchema.safeParse({
            sample_size: Number(form.sample_size),
            num_clusters: Number(form.num_clusters),
            seed: Number(form.seed),
            ...(form.text_query.trim() ? { text_query: form.text_query.trim() } : {}),
          });
          if (!parsed.success) return setFormError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
          setFormError(null);
          run.mutate(parsed.data);
        }}
      >
        {field("sample_size", tl.sampleSize)}
        {field("num_clusters", tl.clusters)}
        {field("seed", tl.seed)}
        <div className="min-w-0 flex-1 basis-48">{field("text_query", tl.textQuery)}</div>
        <Button type="submit" disabled={run.isPending}>
          {tl.discoverButton}
        </Button>
      </form>
      <FieldHint>{tl.discoverHint}</FieldHint>
      <FieldError>{formError}</FieldError>
      {run.isError ? <Notice tone="danger">{errorMessage(run.error, t.common.unknownError)}</Notice> : null}
      {save.isError ? <Notice tone="danger">{errorMessage(save.error, t.common.unknownError)}</Notice> : null}
      {run.isPending ? <Skeleton className="h-24 w-full" /> : null}
      {run.data ? (
        <ul className="space-y-2">
          {run.data.candidates.map((c) => (
            <li key={c.id} className="rounded-card border border-line p-3 text-sm">
              <p className="font-medium">{fmt(tl.candidate, { label: c.label || tl.unnamed, size: plural(locale, c.size, tl.members), cohesion: c.cohesion.toFixed(2) })}</p>
              {c.shared_keywords.length ? (
                <p className="text-muted">
                  {tl.sharedKeywords}: {c.shared_keywords.map((k) => `${k.value} (${k.count})`).join(", ")}
                </p>
              ) : null}
              <Button
                size="sm"
                variant="secondary"
                className="mt-1"
                disabled={save.isPending}
                onClick={() =>
                  save.mutate({
                    label: (c.label || tl.unnamed).slice(0, 200),
                    keywords: c.shared_keywords.map((k) => k.value).slice(0, 50),
                    members: c.members.map((m) => ({ judgment_id: m.judgment_id, similarity: m.similarity })),
                  })
                }
              >
                {tl.saveCandidate}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function ReasoningLinesExplorer({ isAdmin }: { isAdmin: boolean }) {
  const { locale, t } = useI18n();
  const tl = t.analysis.lines;
  const qc = useQueryClient();
  const [q, setQ] = useState("");
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // Admins may list deleted and merged lines too (the API's include_deleted, refused to others by the database's RLS).
  const [showDeleted, setShowDeleted] = useState(false);
  const withDeleted = isAdmin && showDeleted;
  const list = useQuery({
    queryKey: ["lines", query, withDeleted],
    queryFn: async () => (query ? (await searchLines(query)).lines.map((h) => h.line) : (await listLines(1, 50, withDeleted)).lines),
  });
  const refresh = () => void qc.invalidateQueries({ predicate: (x) => ["lines", "lines-dag", "line-timeline"].includes(String(x.queryKey[0])) });
  const detect = useMutation({ mutationFn: detectEvents, onSuccess: refresh });

  return (
    <div className="space-y-8">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(q.trim() || null);
        }}
      >
        <div className="min-w-0 flex-1 basis-60">
          <Label htmlFor="lines-q">{tl.searchLabel}</Label>
          <Input id="lines-q" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} />
        </div>
        <Button type="submit">{tl.searchButton}</Button>
        {query ? (
          <Button type="button" variant="ghost" onClick={() => (setQ(""), setQuery(null))}>
            {tl.clearSearch}
          </Button>
        ) : null}
        {isAdmin ? (
          <label className="flex items-center gap-2 text-sm" title={tl.showDeletedHint}>
            <input type="checkbox" className="size-4 accent-brand" checked={showDeleted} onChange={(e) => setShowDeleted(e.target.checked)} />
            {tl.showDeleted}
          </label>
        ) : null}
      </form>

      {list.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : list.isError ? (
        <Notice tone="danger">{fmt(tl.loadError, { message: errorMessage(list.error, t.common.unknownError) })}</Notice>
      ) : list.data.length === 0 ? (
        <p className="rounded-card border border-dashed border-line-strong p-6 text-center text-muted">{tl.empty}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {list.data.map((l) => (
            <li key={l.id}>
              <Card className="p-4" data-line-id={l.id}>
                <p className="font-semibold">
                  {l.label}
                  {l.status !== "active" ? (
                    <span className="ml-2 rounded border border-line-strong px-1 text-xs font-normal text-muted" data-line-status={l.status}>
                      {tl.statuses[l.status]}
                    </span>
                  ) : null}
                </p>
                {l.legal_question ? <p className="text-sm">{l.legal_question}</p> : null}
                <p className="text-sm text-muted">
                  {plural(locale, l.member_count, tl.members)} · {fmt(tl.span, { first: formatDate(locale, l.first_date), last: formatDate(locale, l.last_date) })}
                </p>
                {l.keywords.length ? <p className="text-xs text-muted">{l.keywords.join(", ")}</p> : null}
                <Button size="sm" variant="ghost" aria-expanded={open === l.id} onClick={() => setOpen(open === l.id ? null : l.id)}>
                  {tl.openTimeline}
                </Button>
                {open === l.id ? <Timeline id={l.id} includeDeleted={withDeleted} /> : null}
                {isAdmin && l.status === "active" ? <AdminLineTools line={l} onChanged={refresh} /> : null}
              </Card>
            </li>
          ))}
        </ul>
      )}

      <section>
        <h2 className="mb-2 text-lg font-semibold">{tl.dag}</h2>
        <Dag />
      </section>

      {isAdmin ? (
        <section className="space-y-4 rounded-card border border-line p-4">
          <h2 className="text-lg font-semibold">{tl.admin}</h2>
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" onClick={() => detect.mutate()} disabled={detect.isPending}>
              {tl.detectEvents}
            </Button>
            {detect.data ? <span className="text-sm text-muted">{plural(locale, detect.data.events.length, tl.detected)}</span> : null}
            {detect.isError ? <Notice tone="danger">{errorMessage(detect.error, t.common.unknownError)}</Notice> : null}
          </div>
          <Discover onSaved={refresh} />
        </section>
      ) : null}
    </div>
  );
}
