"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { Card } from "@/components/ui/card";
import { getAdminStats } from "@/lib/client/admin-api";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber } from "@/lib/i18n/locale";
import { QueryState, Stat } from "./query-state";

/** /admin: users, corpus, searches and the last week's product events (a bar chart: names read better as bars). */
export function AdminOverview() {
  const { locale, t } = useI18n();
  const O = t.admin.overview;
  const stats = useQuery({ queryKey: ["admin", "stats"], queryFn: getAdminStats });
  const n = (v: number) => formatNumber(locale, v);
  return (
    <QueryState query={stats}>
      {(s) => {
        const events = Object.entries(s.events_7d)
          .map(([name, count]) => ({ name, count }))
          .sort((a, b) => b.count - a.count);
        return (
          <div className="space-y-6">
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="admin-stats">
              <Stat label={O.users} value={n(s.users.total)} />
              <Stat label={O.admins} value={n(s.users.admins)} />
              <Stat label={O.new7d} value={n(s.users.new_7d)} />
              <Stat label={O.active7d} value={n(s.users.active_7d)} />
              <Stat label={O.judgments} value={n(s.judgments.total)} />
              <Stat label={O.baseExtracted} value={n(s.judgments.base_extracted)} />
              <Stat label={O.collections} value={n(s.collections)} />
              <Stat label={O.banned} value={n(s.users.banned)} />
              <Stat label={O.searches} value={n(s.searches.total)} />
              <Stat label={O.searches24h} value={n(s.searches.last_24h)} />
              <Stat
                label={O.zeroRate}
                value={s.searches.zero_result_rate === null ? "—" : `${(s.searches.zero_result_rate * 100).toFixed(1)}%`}
              />
            </dl>
            <Card className="p-5">
              <h2 className="text-lg font-semibold">{O.events7d}</h2>
              {events.length === 0 ? (
                <p className="mt-2 text-sm text-muted">{O.noEvents}</p>
              ) : (
                <figure aria-label={O.events7d} className="mt-3 w-full" style={{ height: Math.max(140, events.length * 28 + 30) }}>
                  <ResponsiveContainer width="100%" height="100%">
                    <BarChart data={events} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 4 }}>
                      <CartesianGrid horizontal={false} stroke="var(--color-line)" />
                      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
                      <YAxis type="category" dataKey="name" width={170} tick={{ fontSize: 11 }} interval={0} />
                      <Tooltip cursor={{ fill: "var(--color-sunken)" }} />
                      <Bar dataKey="count" fill="var(--color-chart-1)" isAnimationActive={false} />
                    </BarChart>
                  </ResponsiveContainer>
                </figure>
              )}
            </Card>
          </div>
        );
      }}
    </QueryState>
  );
}
