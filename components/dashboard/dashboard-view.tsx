"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSessionUser } from "@/components/shell/user-context";
import { QueryState, Stat } from "@/components/admin/query-state";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { getDashboardStats, refreshDashboard } from "@/lib/client/admin-api";
import { errorMessage } from "@/lib/client/api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, formatDateTime, formatNumber } from "@/lib/i18n/locale";
import { CountBars, CoverageBars, PerYearChart } from "./charts";
import { coverageByGroup } from "./completeness";

/** /dashboard: the precomputed corpus statistics in charts; admins can recompute (twice an hour). */
export function DashboardView() {
  const { locale, t } = useI18n();
  const D = t.admin.dashboard;
  const user = useSessionUser();
  const qc = useQueryClient();
  const stats = useQuery({ queryKey: ["dashboard"], queryFn: getDashboardStats });
  const refresh = useMutation({ mutationFn: refreshDashboard, onSuccess: (s) => qc.setQueryData(["dashboard"], s) });
  const n = (v: number) => formatNumber(locale, v);
  return (
    <QueryState query={stats}>
      {(s) =>
        s.total_judgments === 0 ? (
          <p className="text-muted">{D.empty}</p>
        ) : (
          <div className="space-y-6" data-testid="dashboard">
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <Stat label={D.total} value={n(s.total_judgments)} />
              <Stat label="PL" value={n(s.by_jurisdiction.PL)} />
              <Stat label="UK" value={n(s.by_jurisdiction.UK)} />
              <Stat label={D.overall} value={s.data_completeness.overall === null ? "—" : `${(s.data_completeness.overall * 100).toFixed(1)}%`} />
            </dl>
            <p className="text-sm text-muted">
              {D.range}: {formatDate(locale, s.date_range.min)} – {formatDate(locale, s.date_range.max)} ·{" "}
              {fmt(D.computedAt, { when: formatDateTime(locale, s.computed_at) })}
            </p>
            {user?.role === "admin" ? (
              <div className="flex flex-wrap items-center gap-2">
                <Button size="sm" variant="secondary" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
                  {D.refresh}
                </Button>
                {refresh.isSuccess ? <span role="status" className="text-sm">{D.refreshed}</span> : null}
                {refresh.isError ? <Notice tone="danger">{errorMessage(refresh.error, t.common.unknownError)}</Notice> : null}
              </div>
            ) : null}
            <Card className="p-5">
              <h2 className="text-lg font-semibold">{D.perYear}</h2>
              <PerYearChart data={s.decisions_per_year} title={D.perYear} />
            </Card>
            <div className="grid gap-6 lg:grid-cols-2">
              <Card className="p-5">
                <h2 className="text-lg font-semibold">{D.topCourts}</h2>
                <CountBars data={s.top_courts} title={D.topCourts} />
              </Card>
              <Card className="p-5">
                <h2 className="text-lg font-semibold">{D.completeness}</h2>
                <CoverageBars groups={coverageByGroup(s.data_completeness.by_field, locale)} title={D.completeness} />
              </Card>
              <Card className="p-5">
                <h2 className="text-lg font-semibold">{D.topKeywords}</h2>
                <CountBars data={s.top_keywords.map((k) => ({ name: k.value, count: k.count }))} title={D.topKeywords} />
              </Card>
              <Card className="space-y-4 p-5">
                <div>
                  <h2 className="text-lg font-semibold">{D.byDecisionType}</h2>
                  <CountBars data={Object.entries(s.by_decision_type).map(([name, count]) => ({ name, count }))} title={D.byDecisionType} />
                </div>
                <div>
                  <h2 className="text-lg font-semibold">{D.byCourtLevel}</h2>
                  <CountBars data={Object.entries(s.by_court_level).map(([name, count]) => ({ name, count }))} title={D.byCourtLevel} />
                </div>
              </Card>
            </div>
          </div>
        )
      }
    </QueryState>
  );
}
