import type { Metadata } from "next";
import { DashboardView } from "@/components/dashboard/dashboard-view";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.dashboard.title, description: t.admin.dashboard.lead };
}

/** Public: the corpus statistics (GET /api/dashboard/stats) in charts. */
export default async function DashboardPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.dashboard.title} lead={t.admin.dashboard.lead} />
      <DashboardView />
    </>
  );
}
