import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { StatusView } from "@/components/status/status-view";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.status.title, description: t.status.description };
}

export default async function StatusPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.status.title} lead={t.status.description} />
      <StatusView />
    </>
  );
}
