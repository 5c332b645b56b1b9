import type { Metadata } from "next";
import { UnsubscribeForm } from "@/components/accounts/unsubscribe-form";
import { PageHeader } from "@/components/page-header";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.accounts.unsubscribe.title, robots: { index: false } };
}

/** Public (the link in a digest works without signing in); the token is checked when the button is pressed. */
export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { t } = await getI18n();
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw.slice(0, 500) : "";
  return (
    <>
      <PageHeader title={t.accounts.unsubscribe.title} />
      <UnsubscribeForm token={token} />
    </>
  );
}
