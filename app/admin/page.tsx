import { AdminOverview } from "@/components/admin/overview";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export default async function AdminPage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.overview.title} lead={t.admin.overview.lead} />
      <AdminOverview />
    </>
  );
}
