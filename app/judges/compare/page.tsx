import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { compareHref, JudgeComparisonView } from "@/components/analysis/judge-profile";
import { PageHeader } from "@/components/page-header";
import { Notice } from "@/components/ui/notice";
import { getSessionUser, pageJudgeComparison } from "@/lib/api/pages";
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

/** /judges/compare?j=A&j=B[&j=C] (signed in): 2-3 judges side by side, read on the server from the address. */
export default async function JudgeComparePage({ searchParams }: Props) {
  const names = await namesOf(searchParams);
  if (!(await getSessionUser())) redirect(`/sign-in?next=${encodeURIComponent(compareHref(names))}`);
  const { t } = await getI18n();
  const tj = t.analysis.judges;
  const read = names.length >= 2 ? await pageJudgeComparison(names.join(",")) : null;
  if (read?.status === 404) notFound();
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
      {read === null ? (
        <Notice tone="info">{tj.compareEmpty}</Notice>
      ) : read.data ? (
        <JudgeComparisonView c={read.data} />
      ) : (
        <Notice tone="danger">{fmt(tj.loadError, { message: read.message || t.common.unknownError })}</Notice>
      )}
    </>
  );
}
