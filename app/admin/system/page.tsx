import type { Metadata } from "next";
import { SystemView } from "@/components/admin/system-view";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.system.title, robots: { index: false } };
}

export default async function AdminSystemViewPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.system.title} lead={t.admin.system.lead} />
      <SystemView />
    </>
  );
}
