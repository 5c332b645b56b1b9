import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { ReasoningLinesExplorer } from "@/components/analysis/reasoning-lines-explorer";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.analysis.lines.title, description: t.analysis.lines.description };
}

/** /reasoning-lines (signed in): lines, search, the DAG, a timeline per line; admin controls for administrators. */
export default async function ReasoningLinesPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?next=/reasoning-lines");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.analysis.lines.title} lead={t.analysis.lines.description} />
      <AnalysisNav />
      <ReasoningLinesExplorer isAdmin={user.role === "admin"} />
    </>
  );
}
