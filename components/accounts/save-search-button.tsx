"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { LazyDialog, preloadDialog } from "@/components/ui/lazy-dialog";
import { FieldError, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError } from "@/lib/client/api";
import { createSavedSearch } from "@/lib/client/accounts-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";
import { ALERT_FREQUENCIES, SAVED_SEARCH_NAME_MAX, type AlertFrequency, type SavedSearchKind } from "@/lib/schema/requests/saved-search-limits";

/**
 * "Save search" on /search and /search/extractions: a dialog with the name (prefilled from the query or the `nl`
 * question), an optional folder and the e-mail alert. `params.url` is the page's query string, so opening the saved
 * search later restores the page exactly. Validated with the API's own schema before sending (imported on submit).
 */
export function SaveSearchButton({
  kind,
  query,
  params,
  defaultName,
  disabled,
}: {
  kind: SavedSearchKind;
  query: string;
  params: Record<string, unknown>;
  defaultName: string;
  disabled?: boolean;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const s = t.accounts.save;
  const labels = { name: s.name, folder: s.folder, alert: s.alert, "alert.frequency": s.frequency };
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [folder, setFolder] = useState("");
  const [alert, setAlert] = useState(false);
  const [frequency, setFrequency] = useState<AlertFrequency>("weekly");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [status, setStatus] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  function openDialog(next: boolean) {
    if (next) {
      setName(defaultName.trim().slice(0, SAVED_SEARCH_NAME_MAX));
      setStatus(null);
      setFieldError(null);
    }
    setOpen(next);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = { name, kind, query, params, folder: folder.trim() || null, alert: { enabled: alert, frequency } };
    // The API's own schema and the message mapping, loaded on submit so zod is not in the search page's first load.
    const [{ CreateSavedSearchSchema }, { checkWith, requestErrorText }] = await Promise.all([
      import("@/lib/schema/requests/accounts"),
      import("@/lib/client/validation"),
    ]);
    const checked = checkWith(CreateSavedSearchSchema, body, i18n, labels);
    if (!checked.ok) {
      setFieldError([...checked.errors.values()].join(" "));
      return;
    }
    setBusy(true);
    try {
      await createSavedSearch(checked.data);
      setStatus({ tone: "success", text: s.saved });
      setOpen(false);
    } catch (err) {
      const text =
        err instanceof ApiRequestError && err.code === "ALERT_EMAIL_UNCONFIRMED"
          ? s.alertNeedsConfirmedEmail
          : fmt(s.failed, { message: requestErrorText(err, i18n, labels, t.common.unknownError) });
      setStatus({ tone: "danger", text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        type="button"
        variant="secondary"
        size="sm"
        onClick={() => openDialog(true)}
        onPointerEnter={preloadDialog}
        onFocus={preloadDialog}
        disabled={disabled}
        data-testid="save-search"
      >
        {s.button}
      </Button>
      <LazyDialog open={open} onOpenChange={openDialog} title={s.title}>
        <form onSubmit={submit} className="space-y-4" noValidate>
          <div>
            <Label htmlFor="saved-name">{s.name}</Label>
            <Input
              id="saved-name"
              value={name}
              maxLength={SAVED_SEARCH_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? "saved-name-error" : undefined}
              required
            />
            {fieldError ? <FieldError id="saved-name-error">{fieldError}</FieldError> : null}
          </div>
          <div>
            <Label htmlFor="saved-folder">{s.folder}</Label>
            <Input id="saved-folder" value={folder} maxLength={100} onChange={(e) => setFolder(e.target.value)} />
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <label className="inline-flex items-center gap-2 text-sm">
              <input type="checkbox" className="size-4 accent-brand" checked={alert} onChange={(e) => setAlert(e.target.checked)} />
              {s.alert}
            </label>
            <label className="inline-flex items-center gap-2 text-sm">
              {s.frequency}
              <select
                className="h-9 rounded-control border border-line-strong bg-surface px-2"
                value={frequency}
                disabled={!alert}
                onChange={(e) => setFrequency(e.target.value as AlertFrequency)}
              >
                {ALERT_FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {t.accounts.frequency[f]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {status?.tone === "danger" ? <Notice tone="danger">{status.text}</Notice> : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
              {s.cancel}
            </Button>
            <Button type="submit" disabled={busy}>
              {s.submit}
            </Button>
          </div>
        </form>
      </LazyDialog>
      {status?.tone === "success" ? (
        <p role="status" className="text-sm text-muted">
          {status.text} <a className="underline" href="/saved">{t.accounts.saved.title}</a>
        </p>
      ) : null}
    </div>
  );
}
