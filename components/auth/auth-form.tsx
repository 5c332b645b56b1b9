"use client";

import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ApiRequestError, apiFetch } from "@/lib/client/api";
import { safeNext } from "@/lib/client/safe-next";
import { localizedResolver, requestErrorText } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { PASSWORD_MIN_LENGTH } from "@/lib/schema/requests/auth";

type Mode = "sign-in" | "sign-up";

/** The form's checks; their messages come from the one validation mapping (lib/i18n/validation.ts), with the labels. */
function schemaFor(mode: Mode) {
  return z.object({
    email: z.email().max(254),
    password: mode === "sign-up" ? z.string().min(PASSWORD_MIN_LENGTH).max(72) : z.string().min(1).max(72),
  });
}

type Values = z.infer<ReturnType<typeof schemaFor>>;

/** Words for the auth service's stable codes (Supabase Auth codes upper-cased by the route handlers). */
function describe(err: unknown, i18n: ReturnType<typeof useI18n>, fallback: string): string {
  const t = i18n.t.auth;
  if (err instanceof ApiRequestError) {
    switch (err.code) {
      case "VALIDATION_ERROR":
        return requestErrorText(err, i18n, { email: t.email, password: t.password }, fallback);
      case "INVALID_CREDENTIALS":
        return t.invalidCredentials;
      case "USER_ALREADY_EXISTS":
      case "EMAIL_EXISTS":
        return t.emailTaken;
      case "WEAK_PASSWORD":
        return t.weakPassword;
    }
    return fmt(t.failed, { message: err.message });
  }
  return fallback;
}

export function AuthForm({ mode, next }: { mode: Mode; next: string | null }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [formError, setFormError] = useState<string | null>(null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: localizedResolver(schemaFor(mode), i18n, { email: t.auth.email, password: t.auth.password }) });

  async function onSubmit(values: Values) {
    setFormError(null);
    try {
      await apiFetch(`/api/auth/${mode}`, { method: "POST", json: values });
      // A full navigation: the next page renders on the server with the new session cookies (a client-side replace
      // raced the refresh of the sign-in route, which then redirected nowhere).
      window.location.assign(safeNext(next));
    } catch (err) {
      setFormError(describe(err, i18n, t.common.unknownError));
    }
  }

  const passwordHintId = `${mode}-password-hint`;
  return (
    // method=post: a submit before hydration must never put the password in the URL; the button waits for hydration.
    <form method="post" onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4" aria-describedby={formError ? `${mode}-error` : undefined}>
      {formError ? (
        <div id={`${mode}-error`}>
          <Notice tone="danger">{formError}</Notice>
        </div>
      ) : null}
      <div>
        <Label htmlFor={`${mode}-email`}>{t.auth.email}</Label>
        <Input
          id={`${mode}-email`}
          type="email"
          autoComplete="email"
          inputMode="email"
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${mode}-email-error` : undefined}
          {...register("email")}
        />
        <FieldError id={`${mode}-email-error`}>{errors.email?.message}</FieldError>
      </div>
      <div>
        <Label htmlFor={`${mode}-password`}>{t.auth.password}</Label>
        <Input
          id={`${mode}-password`}
          type="password"
          autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={[mode === "sign-up" ? passwordHintId : null, errors.password ? `${mode}-password-error` : null].filter(Boolean).join(" ") || undefined}
          {...register("password")}
        />
        {mode === "sign-up" ? <FieldHint id={passwordHintId}>{t.auth.passwordHint}</FieldHint> : null}
        <FieldError id={`${mode}-password-error`}>{errors.password?.message}</FieldError>
      </div>
      <Button type="submit" className="w-full" disabled={isSubmitting || !hydrated}>
        {isSubmitting ? t.auth.working : mode === "sign-up" ? t.auth.submitSignUp : t.auth.submitSignIn}
      </Button>
      <p className="text-center text-sm text-muted">
        {mode === "sign-up" ? t.auth.haveAccount : t.auth.noAccount}{" "}
        <Link
          href={`${mode === "sign-up" ? "/sign-in" : "/sign-up"}${next ? `?next=${encodeURIComponent(next)}` : ""}`}
          className="font-medium text-brand underline"
        >
          {mode === "sign-up" ? t.header.signIn : t.header.signUp}
        </Link>
      </p>
    </form>
  );
}
