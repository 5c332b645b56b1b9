"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button, buttonClass } from "@/components/ui/button";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { FieldError, Input, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { saveFromFilter, type FromFilterResponse } from "@/lib/client/extractions-api";
import type { ApiFilter } from "@/lib/client/filter-codec";
import { emit } from "@/lib/client/track";
import { localizedResolver, requestErrorText } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import type { Messages } from "@/lib/i18n/en";
import { fmt, formatDateTime, formatNumber, type Locale, plural } from "@/lib/i18n/locale";

const Schema = z.object({ name: z.string().trim().min(1).max(255), description: z.string().max(1000) });
type Values = z.infer<typeof Schema>;

/** Default name: the natural-language question the cohort came from, or a dated fallback (spec: Limits, save dialog). */
export function defaultCollectionName(nl: string, t: Messages, locale: Locale, now = new Date()): string {
  const fromNl = nl.trim().slice(0, 255);
  return fromNl || fmt(t.extr.defaultName, { date: formatDateTime(locale, now.toISOString()) }).slice(0, 255);
}

function explain(err: unknown, i18n: ReturnType<typeof useI18n>): string {
  const { t, locale } = i18n;
  if (err instanceof ApiRequestError) {
    if (err.code === "VALIDATION_ERROR") return requestErrorText(err, i18n, saveLabels(t), t.common.unknownError);
    if (err.code === "FILTER_EMPTY") return t.extr.saveEmpty;
    if (err.code === "FILTER_TOO_LARGE") {
      const total = Number(err.detail.total);
      const cap = Number(err.detail.cap);
      return plural(locale, Number.isFinite(total) ? total : 0, t.extr.saveTooLarge, { ...(Number.isFinite(total) ? {} : { count: "?" }), cap: Number.isFinite(cap) ? formatNumber(locale, cap) : "?" });
    }
    return fmt(t.extr.saveFailed, { message: err.message });
  }
  return t.common.unknownError;
}

const saveLabels = (t: Messages) => ({ name: t.extr.saveName, description: t.extr.saveDescription });

export function SaveCollectionDialog({ open, onOpenChange, filters, textQuery, nl }: { open: boolean; onOpenChange: (v: boolean) => void; filters: ApiFilter; textQuery: string; nl: string }) {
  const i18n = useI18n();
  const { locale, t } = i18n;
  const qc = useQueryClient();
  const [done, setDone] = useState<FromFilterResponse | null>(null);
  const form = useForm<Values>({ resolver: localizedResolver(Schema, i18n, saveLabels(t)), defaultValues: { name: defaultCollectionName(nl, t, locale), description: "" } });
  const save = useMutation({
    mutationFn: (v: Values) => saveFromFilter({ name: v.name.trim(), ...(v.description.trim() ? { description: v.description.trim() } : {}), filters, ...(textQuery ? { text_query: textQuery } : {}) }),
    onSuccess: (res) => {
      for (const c of res.collections) emit("collection_created", { collection_id: c.collection.id });
      setDone(res);
      void qc.invalidateQueries({ queryKey: ["collections"] });
    },
  });

  function change(o: boolean) {
    if (o) {
      form.reset({ name: defaultCollectionName(nl, t, locale), description: "" });
      setDone(null);
      save.reset();
    }
    onOpenChange(o);
  }

  const first = done?.collections[0];
  return (
    <DialogRoot open={open} onOpenChange={change}>
      <DialogContent title={t.extr.saveTitle}>
        {first ? (
          <div className="space-y-4" data-testid="save-done">
            <Notice tone="ok">{plural(locale, first.added_count, t.extr.saveDone, { name: first.collection.name })}</Notice>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => change(false)}>
                {t.common.close}
              </Button>
              <Link href={`/collections/${encodeURIComponent(first.collection.id)}`} className={buttonClass("primary")}>
                {t.extr.openCollection}
              </Link>
            </div>
          </div>
        ) : (
          <form onSubmit={form.handleSubmit((v) => save.mutate(v))} className="space-y-4" noValidate>
            {save.isError ? <Notice tone="danger">{explain(save.error, i18n)}</Notice> : null}
            <div>
              <Label htmlFor="save-name">{t.extr.saveName}</Label>
              <Input
                id="save-name"
                maxLength={255}
                aria-invalid={form.formState.errors.name ? true : undefined}
                aria-describedby={form.formState.errors.name ? "save-name-error" : undefined}
                {...form.register("name")}
              />
              <FieldError id="save-name-error">{form.formState.errors.name?.message}</FieldError>
            </div>
            <div>
              <Label htmlFor="save-description">{t.extr.saveDescription}</Label>
              <Textarea id="save-description" rows={3} maxLength={1000} {...form.register("description")} />
              <FieldError>{form.formState.errors.description?.message}</FieldError>
            </div>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => change(false)}>
                {t.common.cancel}
              </Button>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? t.common.loading : t.extr.saveSubmit}
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </DialogRoot>
  );
}
