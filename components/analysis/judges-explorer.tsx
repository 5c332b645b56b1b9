"use client";

/**
 * /judges: find a judge, read their fingerprint (reasoning styles with the phrases and judgments behind each score,
 * outcomes and sentences from the extracted fields), compare 2-3 judges side by side. Data through lib/client.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { compareJudges, judgeProfile, searchJudges, type JudgeProfile } from "@/lib/client/analysis-lines-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { JudgeSearchQuerySchema } from "@/lib/schema/requests/analysis-lines";

const STYLES = ["textual", "deductive", "analogical", "policy", "teleological"] as const;

function Bars({ data, title, height = 200 }: { data: { label: string; value: number }[]; title: string; height?: number }) {
  return (
    <figure aria-label={title} style={{ height }} className="w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
          <CartesianGrid horizontal={false} stroke="var(--color-line)" />
          <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
          <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 11 }} interval={0} />
          <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
          <Bar dataKey="value" isAnimationActive={false} fill="var(--color-brand)" radius={[0, 3, 3, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

function Profile({ p, compact = false }: { p: JudgeProfile; compact?: boolean }) {
  const { locale, t } = useI18n();
  const tj = t.analysis.judges;
  const styleData = STYLES.map((s) => ({ label: tj.styleNames[s], value: p.styles[s] }));
  return (
    <div className="space-y-4" data-testid="judge-profile">
      <div>
        <h2 className="text-xl font-semibold">{fmt(tj.profileOf, { name: p.name })}</h2>
        <p className="text-sm text-muted">
          {t.common.jurisdiction[p.jurisdiction as "PL" | "UK"] ?? p.jurisdiction} · {plural(locale, p.judgments, tj.judgmentsCount)} ·{" "}
          {fmt(tj.years, { first: p.years.first ?? "—", last: p.years.last ?? "—" })}
        </p>
        <p className="text-sm text-muted">{fmt(tj.roles, p.roles)}</p>
      </div>
      <section>
        <h3 className="font-semibold">{tj.styles}</h3>
        <Bars data={styleData} title={tj.styles} />
        <table className="mt-2 text-sm">
          <tbody>
            {STYLES.map((s) => (
              <tr key={s} data-style={s}>
                <th scope="row" className="pr-3 text-left font-normal">{tj.styleNames[s]}</th>
                <td className="tabular-nums">{p.styles[s]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-xs text-muted">{plural(locale, p.scored_judgments, tj.scored)} {tj.mode}</p>
      </section>
      {!compact ? (
        <section>
          <h3 className="font-semibold">{tj.evidence}</h3>
          {p.evidence.length === 0 ? <p className="text-sm text-muted">{tj.noData}</p> : null}
          <ul className="space-y-3">
            {p.evidence.map((e) => (
              <li key={e.pattern_id} className="rounded-card border border-line p-3" data-evidence-style={e.style}>
                <p className="text-sm">
                  <span className="font-medium">{tj.styleNames[e.style]}</span>: {fmt(tj.evidencePhrase, { phrase: e.phrase, count: e.count })}
                </p>
                <ul className="mt-1 space-y-1">
                  {e.examples.map((x) => (
                    <li key={x.document_id} className="text-xs text-muted">
                      <Link className="text-brand hover:underline" href={`/documents/${encodeURIComponent(x.document_id)}`}>
                        {x.case_number ?? x.document_id}
                      </Link>
                      : {x.snippet}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section>
        <h3 className="font-semibold">{plural(locale, p.outcome_judgments, tj.outcomes)}</h3>
        {p.outcomes.appeal_outcome.length === 0 ? (
          <p className="text-sm text-muted">{tj.noData}</p>
        ) : (
          <Bars data={p.outcomes.appeal_outcome.map((o) => ({ label: o.value, value: o.count }))} title={plural(locale, p.outcome_judgments, tj.outcomes)} height={Math.max(100, p.outcomes.appeal_outcome.length * 28 + 30)} />
        )}
      </section>
      {!compact ? (
        <section>
          <h3 className="font-semibold">{tj.sentences}</h3>
          {Object.entries(p.sentences).map(([field, values]) => (
            <div key={field} className="mt-2">
              <p className="text-sm font-medium">{field}</p>
              {values.length === 0 ? (
                <p className="text-sm text-muted">{tj.noData}</p>
              ) : (
                <ul className="text-sm text-muted">
                  {values.slice(0, 8).map((v) => (
                    <li key={v.value}>
                      {v.value}: {v.count}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
          <h3 className="mt-3 font-semibold">{tj.courts}</h3>
          <ul className="text-sm text-muted">
            {p.courts.map((c) => (
              <li key={c.name}>
                {c.name}: {c.count}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function JudgesExplorer({ initialJudge }: { initialJudge?: string }) {
  const { locale, t } = useI18n();
  const tj = t.analysis.judges;
  const [q, setQ] = useState("");
  const [query, setQuery] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(initialJudge ?? null);
  const [compare, setCompare] = useState<string[]>([]);
  const [comparing, setComparing] = useState<string[] | null>(null);

  const hits = useQuery({ queryKey: ["judge-search", query], queryFn: () => searchJudges(query ?? ""), enabled: query !== null });
  const profile = useQuery({ queryKey: ["judge-profile", selected], queryFn: () => judgeProfile(selected ?? ""), enabled: selected !== null });
  const comparison = useQuery({ queryKey: ["judge-compare", comparing], queryFn: () => compareJudges(comparing ?? []), enabled: comparing !== null });

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          // The route's own schema: the same rule (q ≥ 2 characters) in the form and at the API.
          const parsed = JudgeSearchQuerySchema.shape.q.safeParse(q);
          if (!parsed.success) return setFormError(tj.searchHint);
          setFormError(null);
          setQuery(parsed.data);
        }}
      >
        <div className="min-w-0 flex-1 basis-60">
          <Label htmlFor="judge-q">{tj.searchLabel}</Label>
          <Input id="judge-q" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} aria-describedby="judge-q-hint judge-q-error" aria-invalid={formError ? true : undefined} />
          <FieldHint id="judge-q-hint">{tj.searchHint}</FieldHint>
          <FieldError id="judge-q-error">{formError}</FieldError>
        </div>
        <Button type="submit">{tj.searchButton}</Button>
      </form>

      {query !== null ? (
        hits.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : hits.isError ? (
          <Notice tone="danger">{fmt(tj.loadError, { message: errorMessage(hits.error, t.common.unknownError) })}</Notice>
        ) : hits.data.judges.length === 0 ? (
          <p className="text-muted">{tj.noHits}</p>
        ) : (
          <ul className="divide-y divide-line rounded-card border border-line" aria-label={tj.searchLabel}>
            {hits.data.judges.map((j) => (
              <li key={`${j.name}|${j.jurisdiction}`} className="flex flex-wrap items-center gap-2 p-2">
                <button type="button" className="font-medium text-brand hover:underline" onClick={() => setSelected(j.name)}>
                  {j.name}
                </button>
                <span className="text-sm text-muted">
                  {j.jurisdiction} · {plural(locale, j.judgments, tj.judgmentsCount)}
                </span>
                <span className="ml-auto">
                  {compare.includes(j.name) ? (
                    <Button size="sm" variant="ghost" onClick={() => setCompare(compare.filter((n) => n !== j.name))}>
                      {tj.compareRemove}
                    </Button>
                  ) : (
                    <Button size="sm" variant="secondary" disabled={compare.length >= 3} onClick={() => setCompare([...compare, j.name])}>
                      {tj.compareAdd}
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : null}

      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" disabled={compare.length < 2} onClick={() => setComparing(compare)}>
          {tj.compareButton}
        </Button>
        <span className="text-sm text-muted">{compare.length ? compare.join(", ") : tj.compareHint}</span>
      </div>

      {comparing !== null ? (
        comparison.isPending ? (
          <Skeleton className="h-64 w-full" />
        ) : comparison.isError ? (
          <Notice tone="danger">{fmt(tj.loadError, { message: errorMessage(comparison.error, t.common.unknownError) })}</Notice>
        ) : (
          <div className="grid gap-4 md:grid-cols-3">
            {comparison.data.judges.map((p) => (
              <Card key={p.name} className="p-4">
                <Profile p={p} compact />
              </Card>
            ))}
          </div>
        )
      ) : null}

      {selected !== null ? (
        profile.isPending ? (
          <Skeleton className="h-96 w-full" />
        ) : profile.isError ? (
          <Notice tone="danger">{fmt(tj.loadError, { message: errorMessage(profile.error, t.common.unknownError) })}</Notice>
        ) : (
          <Card className="p-4">
            <Profile p={profile.data} />
          </Card>
        )
      ) : null}
    </div>
  );
}
