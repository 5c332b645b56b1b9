import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AnalysisNav } from "@/components/analysis/analysis-nav";
import { TopicsPage } from "@/components/analysis/topics-page";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.analysis.topics.title, description: t.analysis.topics.description };
}

/** /topics (signed in, P-42): trending topics, the run form, the caller's runs. Guests see trending on the landing page. */
export default async function TopicsRoute() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/topics");
  const { t } = await getI18n();
  return (
    <>
      <AnalysisNav />
      <PageHeader title={t.analysis.topics.title} lead={t.analysis.topics.description} />
      <TopicsPage />
    </>
  );
}
