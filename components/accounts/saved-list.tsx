"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import {
  deleteSavedSearch,
  listSavedSearches,
  runSavedSearch,
  savedSearchHref,
  updateSavedSearch,
  type SavedSearch,
  type SavedSearchRun,
} from "@/lib/client/accounts-api";
import { ApiRequestError } from "@/lib/client/api";
import { checkWith, requestErrorText } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, formatNumber, plural } from "@/lib/i18n/locale";
import { ALERT_FREQUENCIES, PatchSavedSearchSchema, type AlertFrequency } from "@/lib/schema/requests/accounts";

const PAGE_SIZE = 20;

/** /saved: the caller's saved searches by folder, with open, run, rename, delete and the alert toggle. */
export function SavedList() {
  const { locale, t } = useI18n();
  const s = t.accounts.saved;
  const qc = useQueryClient();
  const [folder, setFolder] = useState<string | undefined>(undefined);
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: ["saved-searches", folder, page], queryFn: () => listSavedSearches({ folder, page, limit: PAGE_SIZE }) });
  const refresh = () => qc.invalidateQueries({ queryKey: ["saved-searches"] });

  if (list.isPending) {
    return (
      <div aria-busy="true" aria-label={s.loading} className="space-y-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (list.isError) return <Notice tone="danger">{fmt(s.error, { message: list.error.message })}</Notice>;
  const data = list.data;

  return (
    <div className="grid gap-6 md:grid-cols-[12rem_1fr]">
      <nav aria-label={s.folders}>
        <h2 className="mb-2 text-sm font-medium text-muted">{s.folders}</h2>
        <ul className="space-y-1 text-sm">
          <li>
            <button type="button" className={folder === undefined ? "font-semibold" : "underline"} aria-current={folder === undefined ? "true" : undefined} onClick={() => (setFolder(undefined), setPage(1))}>
              {s.allFolders}
            </button>
          </li>
          {data.folders.map((f) => (
            <li key={f.name}>
              <button type="button" className={folder === f.name ? "font-semibold" : "underline"} aria-current={folder === f.name ? "true" : undefined} onClick={() => (setFolder(f.name), setPage(1))}>
                {f.name} <span className="text-muted">({formatNumber(locale, f.count)})</span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="space-y-3">
        {data.saved_searches.length === 0 ? <p className="text-muted">{folder ? s.emptyFolder : s.empty}</p> : null}
        <ul className="space-y-3" aria-label={s.title}>
          {data.saved_searches.map((item) => (
            <li key={item.id} id={`saved-${item.id}`}>
              <SavedItem item={item} onChanged={refresh} />
            </li>
          ))}
        </ul>
        {data.total > PAGE_SIZE ? (
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {s.previous}
            </Button>
            <Button variant="secondary" size="sm" disabled={!data.has_more} onClick={() => setPage(page + 1)}>
              {s.next}
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

function SavedItem({ item, onChanged }: { item: SavedSearch; onChanged: () => void }) {
  const i18n = useI18n();
  const { locale, t } = i18n;
  const s = t.accounts.saved;
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(item.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [run, setRun] = useState<SavedSearchRun | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The alert box answers the click at once and follows the server's value when the list is read again.
  const [alertOn, setAlertOn] = useState(item.alert.enabled);
  const [alertSeen, setAlertSeen] = useState(item.alert.enabled);
  if (alertSeen !== item.alert.enabled) {
    setAlertSeen(item.alert.enabled);
    setAlertOn(item.alert.enabled);
  }

  const patch = useMutation({
    mutationFn: (p: Parameters<typeof updateSavedSearch>[1]) => updateSavedSearch(item.id, p),
    onSuccess: () => (setError(null), onChanged()),
    onError: (e) => setError(e instanceof ApiRequestError && e.code === "ALERT_EMAIL_UNCONFIRMED" ? s.alertNeedsConfirmedEmail : requestErrorText(e, i18n, { name: s.renameLabel }, t.common.unknownError)),
  });
  const remove = useMutation({ mutationFn: () => deleteSavedSearch(item.id), onSuccess: onChanged, onError: (e) => setError(e.message) });
  const runIt = useMutation({ mutationFn: () => runSavedSearch(item.id), onSuccess: (r) => (setRun(r), onChanged()), onError: (e) => setError(e.message) });

  function rename(e: FormEvent) {
    e.preventDefault();
    const checked = checkWith(PatchSavedSearchSchema, { name }, i18n, { name: s.renameLabel });
    if (!checked.ok) return setNameError([...checked.errors.values()].join(" "));
    setNameError(null);
    patch.mutate(checked.data, { onSuccess: () => setRenaming(false) });
  }

  const count = run ? (run.kind === "search" ? run.results.estimated_total : run.results.total) : null;
  return (
    <Card className="space-y-2 p-4" data-testid="saved-item">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {renaming ? (
          <form onSubmit={rename} className="flex flex-wrap items-end gap-2">
            <div>
              <Label htmlFor={`rename-${item.id}`}>{s.renameLabel}</Label>
              <Input id={`rename-${item.id}`} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} aria-invalid={nameError ? true : undefined} autoFocus />
              {nameError ? <FieldError>{nameError}</FieldError> : null}
            </div>
            <Button type="submit" size="sm">
              {s.saveName}
            </Button>
          </form>
        ) : (
          <h3 className="font-semibold">
            <Link href={savedSearchHref(item)} className="underline-offset-2 hover:underline">
              {item.name}
            </Link>
          </h3>
        )}
        <span className="text-xs text-muted">
          {t.accounts.kind[item.kind]}
          {item.folder ? ` · ${item.folder}` : ""}
        </span>
      </div>
      <p className="text-xs text-muted">
        {item.last_run_at ? fmt(s.lastRun, { date: formatDate(locale, item.last_run_at) }) : s.neverRun} · {plural(locale, item.use_count, s.uses)}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Link href={savedSearchHref(item)} className={buttonClass("primary", "sm")}>
          {s.open}
        </Link>
        <Button variant="secondary" size="sm" onClick={() => runIt.mutate()} disabled={runIt.isPending}>
          {s.run}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setRenaming((r) => !r)}>
          {s.rename}
        </Button>
        <Button
          variant="danger"
          size="sm"
          onClick={() => {
            if (window.confirm(fmt(s.confirmDelete, { name: item.name }))) remove.mutate();
          }}
        >
          {s.delete}
        </Button>
        <label className="ml-auto inline-flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-brand"
            checked={alertOn}
            onChange={(e) => {
              const on = e.target.checked;
              setAlertOn(on);
              patch.mutate({ alert: { enabled: on } }, { onError: () => setAlertOn(!on) });
            }}
            aria-label={`${s.alert}: ${item.name}`}
          />
          {s.alert}
        </label>
        <select
          aria-label={`${t.accounts.save.frequency}: ${item.name}`}
          className="h-8 rounded-control border border-line-strong bg-surface px-2 text-sm"
          value={item.alert.frequency}
          onChange={(e) => patch.mutate({ alert: { frequency: e.target.value as AlertFrequency } })}
        >
          {ALERT_FREQUENCIES.map((f) => (
            <option key={f} value={f}>
              {t.accounts.frequency[f]}
            </option>
          ))}
        </select>
      </div>
      {count !== null ? (
        <p role="status" className="text-sm" data-testid="run-result">
          {count > 0 ? plural(locale, count, s.results) : s.noResults}
        </p>
      ) : null}
      {error ? <Notice tone="danger">{error}</Notice> : null}
    </Card>
  );
}
