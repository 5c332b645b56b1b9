import type { Metadata } from "next";
import { ImportsView } from "@/components/admin/imports-view";
import { PageHeader } from "@/components/page-header";
import { config } from "@/lib/config";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.imports.title, robots: { index: false } };
}

export default async function AdminImportsPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.imports.title} lead={t.admin.imports.lead} />
      <ImportsView maxBytes={config().IMPORT_UPLOAD_MAX_BYTES} />
    </>
  );
}
