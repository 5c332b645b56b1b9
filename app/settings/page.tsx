import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SettingsTabs } from "@/components/accounts/settings-tabs";
import { PageHeader } from "@/components/page-header";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.accounts.settings.title, description: t.accounts.settings.description };
}

export default async function SettingsPage() {
  if (!(await getSessionUser())) redirect("/sign-in?next=/settings");
  const { t } = await getI18n();
  return (
    <>
      <PageHeader title={t.accounts.settings.title} lead={t.accounts.settings.description} />
      <SettingsTabs />
    </>
  );
}
