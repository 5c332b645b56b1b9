import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { ComparePage } from "@/components/cohorts/compare-page";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.cohorts.compare.title, description: t.cohorts.compare.description };
}

/** Signed-in only: a cohort may be one of the caller's collections. */
export default async function CompareCohortsRoute() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/cohorts/compare");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.cohorts.compare.title} lead={t.cohorts.compare.description} />
      <Suspense>
        <ComparePage />
      </Suspense>
    </>
  );
}
