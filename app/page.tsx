import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CORPUS } from "@/components/corpus-facts";
import { TrendingTopics } from "@/components/analysis/trending-topics";
import { getI18n } from "@/lib/i18n/server";
import { fmt, plural } from "@/lib/i18n/locale";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: { absolute: t.meta.siteName }, description: t.meta.defaultDescription };
}

export default async function LandingPage() {
  const { locale, t } = await getI18n();
  const L = t.landing;
  const facts = [
    plural(locale, CORPUS.count, L.corpusSize),
    L.corpusJurisdictions,
    fmt(L.corpusDates, { from: CORPUS.fromYear, to: CORPUS.toYear }),
    L.corpusExtracted,
  ];
  const how = [L.howSearch, L.howFilter, L.howAggregate, L.howCollect];
  return (
    <div className="space-y-10">
      <section className="pt-4">
        <h1 className="max-w-3xl text-3xl font-semibold tracking-tight sm:text-4xl">{L.title}</h1>
        <p className="mt-3 max-w-3xl text-lg text-muted">{L.lead}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link href="/search" className={buttonClass("primary", "md")}>
            {L.ctaSearch}
          </Link>
          <Link href="/search/extractions" className={buttonClass("secondary", "md")}>
            {L.ctaExtractions}
          </Link>
          <Link href="/dashboard" className={buttonClass("ghost", "md")} title={t.admin.dashboard.linkLead}>
            {t.admin.dashboard.link} →
          </Link>
        </div>
      </section>

      <section aria-labelledby="corpus-h" className="grid gap-4 md:grid-cols-2">
        <Card className="p-5">
          <h2 id="corpus-h" className="text-lg font-semibold">
            {L.corpusTitle}
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            {facts.map((f) => (
              <li key={f} className="flex gap-2">
                <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand" />
                <span>{f}</span>
              </li>
            ))}
          </ul>
        </Card>
        <Card className="p-5">
          <h2 className="text-lg font-semibold">{L.howTitle}</h2>
          <ul className="mt-3 space-y-2 text-sm">
            {how.map((f) => (
              <li key={f} className="flex gap-2">
                <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-chart-2" />
                <span>{f}</span>
              </li>
            ))}
          </ul>
        </Card>
      </section>

      {/* Explore trending topics (public; the topics of the latest run). */}
      <Card className="p-5">
        <TrendingTopics limit={8} title={t.analysis.topics.exploreTopics} />
        <Link href="/topics" className="mt-3 inline-block text-sm font-medium text-brand underline">
          {t.analysis.topics.openTopicsPage}
        </Link>
      </Card>

      <section aria-labelledby="honesty-h" className="rounded-card border border-warn/30 bg-warn-soft p-5">
        <h2 id="honesty-h" className="font-semibold">
          {L.honestyTitle}
        </h2>
        <p className="mt-1 text-sm">{L.honesty}</p>
        <p className="mt-2 text-sm">
          <Link href="/about" className="font-medium text-brand underline">
            {t.nav.about}
          </Link>
        </p>
      </section>
    </div>
  );
}
