import type { Metadata } from "next";
import { UsersTable } from "@/components/admin/users-table";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.admin.users.title, robots: { index: false } };
}

export default async function AdminUsersTablePage() {
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.admin.users.title} lead={t.admin.users.lead} />
      <UsersTable />
    </>
  );
}
