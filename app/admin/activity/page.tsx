import type { Metadata } from "next";
import { ActivityView } from "@/components/admin/activity-view";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.activity.title, robots: { index: false } };
}

export default async function AdminActivityViewPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.activity.title} lead={t.admin.activity.lead} />
      <ActivityView />
    </>
  );
}
