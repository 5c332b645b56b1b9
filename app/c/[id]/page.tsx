import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CohortView } from "@/components/cohorts/cohort-view";
import { PageHeader } from "@/components/page-header";
import { pageCohort } from "@/lib/api/page-cohorts";
import { getI18n } from "@/lib/i18n/server";
import { fmt } from "@/lib/i18n/locale";
import { COHORT_ID_PATTERN } from "@/lib/schema/requests/cohorts";

type Props = { params: Promise<{ id: string }> };

async function read(id: string) {
  return COHORT_ID_PATTERN.test(id) ? pageCohort(id) : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ id }, { t }] = await Promise.all([params, getI18n()]);
  return { title: fmt(t.cohorts.cohort.title, { id }), description: t.cohorts.cohort.description };
}

/** A cited cohort (public: the short link is the credential; the allowlist in lib/auth/public-routes.ts). */
export default async function CohortPage({ params }: Props) {
  const [{ id }, { t }] = await Promise.all([params, getI18n()]);
  const cohort = await read(id);
  if (!cohort) notFound();
  return (
    <>
      <PageHeader title={fmt(t.cohorts.cohort.title, { id })} lead={t.cohorts.cohort.description} />
      <CohortView cohort={cohort} />
    </>
  );
}
