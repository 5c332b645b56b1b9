import { redirect } from "next/navigation";
import { Card } from "@/components/ui/card";
import { getSessionUser } from "@/components/shell/session-user";
import { safeNext } from "@/lib/client/safe-next";
import { getI18n } from "@/lib/i18n/server";
import { AuthForm } from "./auth-form";

/** Shared body of /sign-in and /sign-up; a visitor who is already signed in goes straight on. */
export async function AuthPage({ mode, searchParams }: { mode: "sign-in" | "sign-up"; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const next = typeof sp.next === "string" ? sp.next : null;
  if (await getSessionUser()) redirect(safeNext(next));
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-sm py-6">
      <h1 className="text-2xl font-semibold tracking-tight">{mode === "sign-up" ? t.auth.signUpTitle : t.auth.signInTitle}</h1>
      <p className="mt-1 text-sm text-muted">{mode === "sign-up" ? t.auth.signUpDescription : t.auth.signInDescription}</p>
      <Card className="mt-6 p-5">
        <AuthForm mode={mode} next={next} />
      </Card>
    </div>
  );
}
