import type { Metadata } from "next";
import { AuthPage } from "@/components/auth/auth-page";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.auth.signUpTitle, description: t.auth.signUpDescription, robots: { index: false } };
}

export default function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <AuthPage mode="sign-up" searchParams={searchParams} />;
}
