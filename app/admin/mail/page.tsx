import type { Metadata } from "next";
import { forbidden, redirect } from "next/navigation";
import { MailList } from "@/components/accounts/mail-list";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.accounts.mail.title, robots: { index: false } };
}

/** Admins only (GET /api/admin/mail checks again; RLS is the last gate). */
export default async function AdminMailPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in?next=/admin/mail");
  if (user.role !== "admin") forbidden();
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.accounts.mail.title} lead={t.accounts.mail.description} />
      <MailList />
    </>
  );
}
