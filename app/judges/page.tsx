import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { JudgesExplorer } from "@/components/analysis/judges-explorer";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.analysis.judges.title, description: t.analysis.judges.description };
}

type Props = { searchParams: Promise<{ judge?: string | string[] }> };

/**
 * /judges (signed in): judge search, with links to each profile (/judges/{name}) and to a comparison
 * (/judges/compare). The older /judges?judge=Name form goes to the profile's own address.
 */
export default async function JudgesPage({ searchParams }: Props) {
  if (!(await getSessionUser())) redirect("/sign-in?next=/judges");
  const judge = (await searchParams).judge;
  if (typeof judge === "string" && judge.trim().length >= 2) redirect(`/judges/${encodeURIComponent(judge.trim())}`);
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.analysis.judges.title} lead={t.analysis.judges.description} />
      <AnalysisNav />
      <JudgesExplorer />
    </>
  );
}
