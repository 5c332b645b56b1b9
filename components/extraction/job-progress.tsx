"use client";

import { Badge, type Tone } from "@/components/ui/badge";
import type { ExtractionJob } from "@/lib/client/extraction-jobs-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatNumber, plural } from "@/lib/i18n/locale";

const TONES: Record<ExtractionJob["status"], Tone> = {
  queued: "neutral",
  running: "brand",
  completed: "ok",
  completed_empty: "warn",
  completed_with_errors: "warn",
  failed: "danger",
  cancelled: "neutral",
};

export function JobStatusBadge({ status }: { status: ExtractionJob["status"] }) {
  const { t } = useI18n();
  return <Badge tone={TONES[status]}>{t.extraction[`status_${status}`]}</Badge>;
}

/** A progress bar with its numbers (a real <progress> element, so assistive technology reads the value). */
export function JobProgress({ job }: { job: ExtractionJob }) {
  const { locale, t } = useI18n();
  const { done, total, failed } = job.progress;
  const pct = total ? Math.round((done / total) * 100) : 0;
  return (
    <div className="space-y-1">
      <progress className="h-2 w-full accent-brand" max={total || 1} value={done} aria-label={plural(locale, total, t.extraction.progressLabel, { done: formatNumber(locale, done) })} data-testid="job-progress" />
      <p className="text-sm text-ink-muted">
        <span data-testid="job-percent">{pct} %</span> · {plural(locale, total, t.extraction.progressLabel, { done: formatNumber(locale, done) })}
        {failed ? ` · ${fmt(t.extraction.progressFailed, { failed })}` : ""}
      </p>
    </div>
  );
}
