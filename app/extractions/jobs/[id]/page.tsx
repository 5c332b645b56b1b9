import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { JobDetail } from "@/components/extraction/job-detail";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.extraction.jobsTitle, description: t.extraction.jobsLead };
}

export default async function ExtractionJobRoute({ params }: Props) {
  const { id } = await params;
  if (!(await getSessionUser())) redirect(`/sign-in?next=/extractions/jobs/${encodeURIComponent(id)}`);
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.extraction.jobsTitle} lead={t.extraction.jobsLead} />
      <JobDetail id={id} />
    </>
  );
}
