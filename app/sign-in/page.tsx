import type { Metadata } from "next";
import { AuthPage } from "@/components/auth/auth-page";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.auth.signInTitle, description: t.auth.signInDescription, robots: { index: false } };
}

export default function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <AuthPage mode="sign-in" searchParams={searchParams} />;
}
