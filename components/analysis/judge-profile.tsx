"use client";

/**
 * A judge's fingerprint as /judges/{name} and /judges/compare show it: reasoning styles as z-scores against the
 * court level (with that baseline named, and "not enough text" instead of a number when the text is too thin), the
 * phrases and judgments behind each style, outcomes and sentences from the extracted fields. Data comes as props
 * (the pages read it on the server from the URL).
 */
import Link from "next/link";
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { keyLabel, valueLabel } from "@/components/extractions/registry-view";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import type { JudgeComparison, JudgeProfile } from "@/lib/client/analysis-lines-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, plural } from "@/lib/i18n/locale";

const STYLES = ["textual", "deductive", "analogical", "policy", "teleological"] as const;
/** |z| at or above which a style is read as differing from the court level (about the outer 5% of a normal curve). */
const LEAN_Z = 2;

export const judgeHref = (name: string) => `/judges/${encodeURIComponent(name)}`;
export const compareHref = (names: readonly string[]) => `/judges/compare?${names.map((n) => `j=${encodeURIComponent(n)}`).join("&")}`;

function Bars({ data, title, height = 200, signed = false }: { data: { label: string; value: number }[]; title: string; height?: number; signed?: boolean }) {
  return (
    <figure aria-label={title} style={{ height }} className="w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
          <CartesianGrid horizontal={false} stroke="var(--color-line)" />
          <XAxis type="number" allowDecimals={signed} tick={{ fontSize: 11 }} />
          <YAxis type="category" dataKey="label" width={150} tick={{ fontSize: 11 }} interval={0} />
          {signed ? <ReferenceLine x={0} stroke="var(--color-muted)" /> : null}
          <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
          <Bar dataKey="value" isAnimationActive={false} fill="var(--color-brand)" radius={[0, 3, 3, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

function Styles({ p }: { p: JudgeProfile }) {
  const { locale, t } = useI18n();
  const tj = t.analysis.judges;
  const b = p.baseline;
  const num = (x: number) => formatNumber(locale, Math.round(x * 100) / 100);
  const signedZ = (z: number) => (z > 0 ? "+" : "") + num(z);
  const min = { few_judgments: b.minimums.judge_judgments, few_phrases: b.minimums.judge_phrases, small_baseline: b.minimums.baseline_judgments };
  const level = b.court_level || tj.levelUnknown;
  const jurisdiction = t.common.jurisdiction[b.jurisdiction as "PL" | "UK"] ?? b.jurisdiction;
  return (
    <section data-testid="judge-styles">
      <h3 className="font-semibold">{tj.styles}</h3>
      <p className="text-xs text-muted" data-testid="judge-baseline">
        {fmt(tj.baselineOf, { judgments: plural(locale, b.judgments, tj.judgmentsCount), level, jurisdiction, judges: plural(locale, b.judges, tj.judgesCount) })}
        {b.pending > 0 ? ` ${plural(locale, b.pending, tj.baselinePending)}` : ""}
      </p>
      {p.styles_reason ? (
        <Notice tone="info">
          <span data-testid="not-enough-text">{plural(locale, min[p.styles_reason], tj.notEnough[p.styles_reason])}</span>
        </Notice>
      ) : (
        <Bars data={STYLES.map((s) => ({ label: tj.styleNames[s], value: p.styles[s].z ?? 0 }))} title={tj.styles} signed />
      )}
      <table className="mt-2 w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-muted">
            <th scope="col" className="pr-3 font-normal">{tj.columns.style}</th>
            <th scope="col" className="pr-3 font-normal">{tj.columns.rate}</th>
            <th scope="col" className="pr-3 font-normal">{tj.columns.baseline}</th>
            <th scope="col" className="font-normal">{tj.columns.z}</th>
          </tr>
        </thead>
        <tbody>
          {STYLES.map((s) => {
            const sc = p.styles[s];
            const lean = sc.z === null ? null : sc.z >= LEAN_Z ? "above" : sc.z <= -LEAN_Z ? "below" : "usual";
            return (
              <tr key={s} data-style={s} data-lean={lean ?? "none"}>
                <th scope="row" className="pr-3 text-left font-normal">{tj.styleNames[s]}</th>
                <td className="pr-3 tabular-nums">{num(sc.rate)}</td>
                <td className="pr-3 tabular-nums">{num(b.rates[s].mean)}</td>
                <td className="tabular-nums" data-z>
                  {sc.z === null ? (
                    <span className="text-muted">{tj.notEnoughText}</span>
                  ) : (
                    <>
                      {signedZ(sc.z)} <span className="text-xs text-muted">({tj.lean[lean ?? "usual"]})</span>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="mt-1 text-xs text-muted">{tj.stylesHelp}</p>
      <p className="text-xs text-muted">
        {plural(locale, p.scored_judgments, tj.scored)} {tj.mode}
      </p>
    </section>
  );
}

export function JudgeProfileView({ p, compact = false }: { p: JudgeProfile; compact?: boolean }) {
  const { locale, t } = useI18n();
  const tj = t.analysis.judges;
  return (
    <div className="space-y-4" data-testid="judge-profile">
      <div>
        <h2 className="text-xl font-semibold">
          {compact ? (
            <Link className="text-brand hover:underline" href={judgeHref(p.name)}>
              {fmt(tj.profileOf, { name: p.name })}
            </Link>
          ) : (
            fmt(tj.profileOf, { name: p.name })
          )}
        </h2>
        <p className="text-sm text-muted">
          {t.common.jurisdiction[p.jurisdiction as "PL" | "UK"] ?? p.jurisdiction} · {plural(locale, p.judgments, tj.judgmentsCount)} ·{" "}
          {fmt(tj.years, { first: p.years.first ?? "—", last: p.years.last ?? "—" })}
        </p>
        <p className="text-sm text-muted">{fmt(tj.roles, p.roles)}</p>
      </div>
      <Styles p={p} />
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
          <Bars
            data={p.outcomes.appeal_outcome.map((o) => ({ label: valueLabel("appeal_outcome", o.value, locale, t), value: o.count }))}
            title={plural(locale, p.outcome_judgments, tj.outcomes)}
            height={Math.max(100, p.outcomes.appeal_outcome.length * 28 + 30)}
          />
        )}
      </section>
      {!compact ? (
        <section>
          <h3 className="font-semibold">{tj.sentences}</h3>
          {Object.entries(p.sentences).map(([field, values]) => (
            <div key={field} className="mt-2">
              <p className="text-sm font-medium">{keyLabel(field, locale)}</p>
              {values.length === 0 ? (
                <p className="text-sm text-muted">{tj.noData}</p>
              ) : (
                <ul className="text-sm text-muted">
                  {values.slice(0, 8).map((v) => (
                    <li key={v.value}>
                      {valueLabel(field, v.value, locale, t)}: {v.count}
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

export function JudgeComparisonView({ c }: { c: JudgeComparison }) {
  return (
    <div className="grid gap-4 md:grid-cols-3" data-testid="judge-comparison">
      {c.judges.map((p) => (
        <Card key={p.name} className="p-4">
          <JudgeProfileView p={p} compact />
        </Card>
      ))}
    </div>
  );
}
