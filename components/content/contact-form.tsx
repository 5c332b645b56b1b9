"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useHydrated } from "@/components/ui/use-hydrated";
import { ApiRequestError } from "@/lib/client/api";
import { sendContact } from "@/lib/client/content-api";
import { apiFieldErrors, localizedResolver } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import { formatNumber, plural } from "@/lib/i18n/locale";
import { CONTACT_LIMITS, ContactSchema, type ContactInput } from "@/lib/schema/requests/content";

/**
 * The contact form: the API's own zod schema validates in the browser, its messages translated and naming the field
 * (lib/client/validation.ts); the honeypot is hidden from people.
 */
export function ContactForm() {
  const i18n = useI18n();
  const { locale, t } = i18n;
  const C = t.content.contact;
  const labels = { name: C.name, email: C.email, subject: C.subject, message: C.message };
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "sent">("idle");
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ContactInput>({ resolver: localizedResolver(ContactSchema, i18n, labels), defaultValues: { name: "", email: "", subject: "", message: "", website: "" } });

  async function onSubmit(values: ContactInput) {
    setFormError(null);
    try {
      await sendContact(values);
      reset();
      setState("sent");
    } catch (err) {
      // The server's verdict on a field is shown beside that field, worded like the browser's own check.
      const fields = apiFieldErrors(err, i18n, labels);
      if (fields) {
        const elsewhere: string[] = [];
        for (const [path, message] of fields) {
          if (path in labels) setError(path as keyof typeof labels, { message });
          else elsewhere.push(message);
        }
        if (elsewhere.length) setFormError(elsewhere.join(" "));
        return;
      }
      setFormError(err instanceof ApiRequestError && err.status === 429 ? C.rateLimited : C.failed);
    }
  }

  if (state === "sent") {
    return (
      <div className="space-y-4">
        <Notice tone="ok">{C.sent}</Notice>
        <Button variant="secondary" onClick={() => setState("idle")}>
          {C.sendAnother}
        </Button>
      </div>
    );
  }

  const err = (k: keyof ContactInput) => (errors[k] ? { "aria-invalid": true, "aria-describedby": `contact-${k}-error` } : {});
  return (
    <form method="post" onSubmit={handleSubmit(onSubmit)} noValidate className="max-w-xl space-y-4" aria-label={C.title}>
      {formError ? <Notice tone="danger">{formError}</Notice> : null}
      <div>
        <Label htmlFor="contact-name">{C.name}</Label>
        <Input id="contact-name" autoComplete="name" maxLength={CONTACT_LIMITS.nameMax} {...err("name")} {...register("name")} />
        <FieldError id="contact-name-error">{errors.name?.message}</FieldError>
      </div>
      <div>
        <Label htmlFor="contact-email">{C.email}</Label>
        <Input id="contact-email" type="email" autoComplete="email" maxLength={CONTACT_LIMITS.email} {...err("email")} {...register("email")} />
        <FieldError id="contact-email-error">{errors.email?.message}</FieldError>
      </div>
      <div>
        <Label htmlFor="contact-subject">{C.subject}</Label>
        <Input id="contact-subject" maxLength={CONTACT_LIMITS.subject} {...err("subject")} {...register("subject")} />
        <FieldError id="contact-subject-error">{errors.subject?.message}</FieldError>
      </div>
      <div>
        <Label htmlFor="contact-message">{C.message}</Label>
        <Textarea id="contact-message" rows={8} maxLength={CONTACT_LIMITS.messageMax} {...err("message")} {...register("message")} />
        <FieldHint>{plural(locale, CONTACT_LIMITS.messageMax, C.messageHint, { min: formatNumber(locale, CONTACT_LIMITS.messageMin) })}</FieldHint>
        <FieldError id="contact-message-error">{errors.message?.message}</FieldError>
      </div>
      {/* The honeypot: off-screen and out of the tab order, so only bots fill it. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">{C.website}</label>
        <input id="contact-website" type="text" tabIndex={-1} autoComplete="off" {...register("website")} />
      </div>
      <Button type="submit" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? C.sending : C.send}
      </Button>
    </form>
  );
}
