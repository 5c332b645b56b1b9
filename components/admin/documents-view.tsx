"use client";

import { useQuery } from "@tanstack/react-query";
import { CountBars, CoverageBars, PerYearChart } from "@/components/dashboard/charts";
import { coverageByGroup } from "@/components/dashboard/completeness";
import { Card } from "@/components/ui/card";
import { getDocumentsStats } from "@/lib/client/admin-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDateTime, formatNumber } from "@/lib/i18n/locale";
import { QueryState, Stat } from "./query-state";

/** /admin/documents: extraction status (base, structure, deep), judgments per year and jurisdiction, completeness. */
export function DocumentsView() {
  const { locale, t } = useI18n();
  const D = t.admin.documents;
  const stats = useQuery({ queryKey: ["admin", "documents"], queryFn: getDocumentsStats });
  const bars = (o: Record<string, number>) => Object.entries(o).map(([name, count]) => ({ name, count }));
  return (
    <QueryState query={stats}>
      {(s) => (
        <div className="space-y-6">
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <Stat label={D.total} value={formatNumber(locale, s.total)} />
            <Stat
              label={D.overall}
              value={s.completeness?.overall == null ? "—" : `${(s.completeness.overall * 100).toFixed(1)}%`}
            />
          </dl>
          <div className="grid gap-6 lg:grid-cols-3">
            {([
              [D.base, s.extraction.base],
              [D.structure, s.extraction.structure],
              [D.deep, s.extraction.deep],
            ] as const).map(([title, data]) => (
              <Card key={title} className="p-5">
                <h2 className="text-lg font-semibold">{title}</h2>
                <CountBars data={bars(data)} title={title} />
              </Card>
            ))}
          </div>
          <Card className="p-5">
            <h2 className="text-lg font-semibold">{D.perYear}</h2>
            <PerYearChart data={s.by_jurisdiction_year} title={D.perYear} />
          </Card>
          {s.completeness ? (
            <Card className="p-5">
              <h2 className="text-lg font-semibold">{D.completeness}</h2>
              {s.completeness_computed_at ? (
                <p className="text-sm text-muted">
                  {fmt(D.computedAt, { when: formatDateTime(locale, s.completeness_computed_at) })}
                </p>
              ) : null}
              <CoverageBars groups={coverageByGroup(s.completeness.by_field, locale)} title={D.completeness} />
            </Card>
          ) : null}
        </div>
      )}
    </QueryState>
  );
}
