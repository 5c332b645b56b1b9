import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { JobsList } from "@/components/extraction/jobs-list";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.extraction.jobsTitle, description: t.extraction.jobsLead };
}

export default async function ExtractionJobsRoute() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/extractions/jobs");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.extraction.jobsTitle} lead={t.extraction.jobsLead} />
      <JobsList />
    </>
  );
}
