"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { recordTopicClick, topicSearchHref, trendingTopics, type TrendingTopic } from "@/lib/client/topics-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber } from "@/lib/i18n/locale";
import { TREND_TONE } from "./trend";

/**
 * Trending topics of the latest run (public: the landing page shows them to everyone). Each opens /search with the
 * topic's keywords and records the click (per user, or per guest device).
 */
export function TrendingTopics({ limit = 6, headingLevel = 2, title }: { limit?: number; headingLevel?: 2 | 3; title?: string }) {
  const { locale, t } = useI18n();
  const T = t.analysis.topics;
  const q = useQuery({ queryKey: ["topics-trending", limit], queryFn: () => trendingTopics(limit) });
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby="trending-h" className="space-y-3">
      <div>
        <H id="trending-h" className="text-lg font-semibold">
          {title ?? T.trendingTitle}
        </H>
        <p className="text-sm text-muted">{T.trendingLead}</p>
      </div>
      {q.isPending ? (
        <div className="flex flex-wrap gap-2" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-40" />
          ))}
        </div>
      ) : q.isError ? (
        <Notice tone="danger">{fmt(T.trendingError, { message: errorMessage(q.error, t.common.unknownError) })}</Notice>
      ) : q.data.topics.length === 0 ? (
        <p className="text-sm text-muted">{T.trendingEmpty}</p>
      ) : (
        <ul className="flex flex-wrap gap-2" data-testid="trending-topics">
          {q.data.topics.map((topic: TrendingTopic) => (
            <li key={topic.topic_id}>
              <Link
                href={topicSearchHref(topic.keywords.map((k) => k.term))}
                onClick={() => recordTopicClick(topic.topic_id)}
                className="inline-flex items-center gap-2 rounded-full border border-line bg-surface px-3 py-1.5 text-sm hover:border-brand focus-visible:outline-2 focus-visible:outline-focus"
              >
                <span className="font-medium text-ink">{topic.label}</span>
                <Badge tone={TREND_TONE[topic.trend]}>{T.trend[topic.trend]}</Badge>
                {topic.clicks > 0 ? <span className="text-xs text-muted">{fmt(T.clicks, { count: formatNumber(locale, topic.clicks) })}</span> : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
