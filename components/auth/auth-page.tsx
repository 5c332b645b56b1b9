import { Card } from "@/components/ui/card";
import { getI18n } from "@/lib/i18n/server";
import { AuthForm } from "./auth-form";

/** Shared body of /sign-in and /sign-up (the pages send a visitor who is already signed in straight on). */
export async function AuthPage({ mode, next }: { mode: "sign-in" | "sign-up"; next: string | null }) {
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
