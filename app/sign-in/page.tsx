import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthPage } from "@/components/auth/auth-page";
import { getSessionUser } from "@/lib/api/pages";
import { safeNext } from "@/lib/client/safe-next";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.auth.signInTitle, description: t.auth.signInDescription, robots: { index: false } };
}

/** A visitor who is already signed in goes straight on. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = typeof sp.next === "string" ? sp.next : null;
  if (await getSessionUser()) redirect(safeNext(next));
  return <AuthPage mode="sign-in" next={next} />;
}
