import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { Suspense } from "react";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { compareHref, JudgeComparisonView } from "@/components/analysis/judge-profile";
import { JudgeSkeleton } from "@/components/analysis/judge-skeleton";
import { PageHeader } from "@/components/page-header";
import { Notice } from "@/components/ui/notice";
import { getSessionUser, pageJudgeComparison, pageJudgeKnown } from "@/lib/api/pages";
import { fmt } from "@/lib/i18n/locale";
import { getI18n } from "@/lib/i18n/server";

type Props = { searchParams: Promise<{ j?: string | string[] }> };

/** The `j` parameters, trimmed, empty ones dropped (a comma inside a name would split it in the API's list form). */
async function namesOf(searchParams: Props["searchParams"]): Promise<string[]> {
  const j = (await searchParams).j;
  return (Array.isArray(j) ? j : j === undefined ? [] : [j]).map((n) => n.trim()).filter((n) => n.length > 0 && !n.includes(","));
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: fmt(t.analysis.judges.compareTitle, { names: (await namesOf(searchParams)).join(", ") }), description: t.analysis.judges.description };
}

/** The comparison, streamed after the page's frame. */
async function Comparison({ names }: { names: string[] }) {
  const { t } = await getI18n();
  const read = await pageJudgeComparison(names.join(","));
  if (read.data) return <JudgeComparisonView c={read.data} />;
  return <Notice tone="danger">{fmt(t.analysis.judges.loadError, { message: read.message || t.common.unknownError })}</Notice>;
}

/**
 * /judges/compare?j=A&j=B[&j=C] (signed in): 2-3 judges side by side, read on the server from the address. A name no
 * judgment carries is the 404 page (checked before anything streams); fewer than two names explains how to pick them.
 */
export default async function JudgeComparePage({ searchParams }: Props) {
  const names = await namesOf(searchParams);
  if (!(await getSessionUser())) redirect(`/sign-in?next=${encodeURIComponent(compareHref(names))}`);
  if (names.length >= 2 && names.length <= 3) for (const n of names) if (!(await pageJudgeKnown(n))) notFound();
  const { t } = await getI18n();
  const tj = t.analysis.judges;
  return (
    <>
      <PageHeader
        title={names.length ? fmt(tj.compareTitle, { names: names.join(", ") }) : tj.compareButton}
        lead={tj.description}
        actions={
          <Link className="text-sm text-brand hover:underline" href="/judges">
            {tj.backToJudges}
          </Link>
        }
      />
      <AnalysisNav />
      {names.length < 2 ? (
        <Notice tone="info">{tj.compareEmpty}</Notice>
      ) : (
        <Suspense fallback={<JudgeSkeleton />}>
          <Comparison names={names} />
        </Suspense>
      )}
    </>
  );
}
