"use client";

import { useSessionUser } from "@/components/shell/user-context";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent, type KeyboardEvent } from "react";
import { ApiKeysPanel } from "@/components/settings/api-keys-panel";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FieldError, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import {
  changePassword,
  deleteAccount,
  getEmbeddings,
  switchEmbeddings,
  getProfile,
  listSavedSearches,
  savedSearchHref,
  updateProfile,
  updateSavedSearch,
} from "@/lib/client/accounts-api";
import { checkWith, requestErrorText } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import type { FieldLabels } from "@/lib/i18n/validation";
import { embedderLabel } from "@/lib/i18n/embedder-label";
import { fmt, LOCALE_COOKIE, type Locale, formatDateTime, formatNumber, plural } from "@/lib/i18n/locale";
import {
  ALERT_FREQUENCIES,
  ChangePasswordSchema,
  DELETE_ACCOUNT_CONFIRMATION,
  INTERFACE_LANGUAGES,
  ProfilePatchSchema,
  type AlertFrequency,
} from "@/lib/schema/requests/accounts";

const TABS = ["profile", "alerts", "apiKeys", "embeddings"] as const;
type Tab = (typeof TABS)[number];

/** /settings: Profile, Alerts and API keys tabs (a WAI-ARIA tab list: arrow keys move between tabs). */
export function SettingsTabs() {
  const { t } = useI18n();
  const [tab, setTab] = useState<Tab>("profile");
  function onKey(e: KeyboardEvent<HTMLDivElement>) {
    const i = TABS.indexOf(tab);
    const next = e.key === "ArrowRight" ? TABS[(i + 1) % TABS.length] : e.key === "ArrowLeft" ? TABS[(i + TABS.length - 1) % TABS.length] : null;
    if (!next) return;
    e.preventDefault();
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  }
  return (
    <div className="space-y-5">
      <div role="tablist" aria-label={t.accounts.settings.title} className="flex gap-1 border-b border-line" onKeyDown={onKey}>
        {TABS.map((id) => (
          <button
            key={id}
            id={`tab-${id}`}
            role="tab"
            type="button"
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab === id ? "border-brand font-semibold" : "border-transparent text-muted"}`}
            onClick={() => setTab(id)}
          >
            {t.accounts.settings.tabs[id]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === "profile" ? <ProfileTab /> : tab === "alerts" ? <AlertsTab /> : tab === "apiKeys" ? <ApiKeysPanel /> : <EmbeddingsTab />}
      </div>
    </div>
  );
}

type I18n = ReturnType<typeof useI18n>;

/** A failed save as text: a 422 names the fields by the form's labels (translated), anything else as it came. */
function errorText(e: unknown, i18n: I18n, labels: FieldLabels): string {
  return requestErrorText(e, i18n, labels, i18n.t.common.unknownError);
}

const profileLabels = (s: I18n["t"]["accounts"]["settings"]): FieldLabels => ({ display_name: s.displayName, language: s.language });
const passwordLabels = (s: I18n["t"]["accounts"]["settings"]): FieldLabels => ({ current_password: s.currentPassword, new_password: s.newPassword });

function ProfileTab() {
  const { t } = useI18n();
  const s = t.accounts.settings;
  const profile = useQuery({ queryKey: ["profile"], queryFn: getProfile });
  if (profile.isPending) return <Skeleton className="h-40" aria-label={s.loading} />;
  if (profile.isError) return <Notice tone="danger">{fmt(s.error, { message: profile.error.message })}</Notice>;
  return (
    <div className="space-y-6">
      <ProfileForm initial={profile.data} />
      <PasswordForm />
      <DeleteAccountForm />
    </div>
  );
}

function ProfileForm({ initial }: { initial: { display_name: string | null; language: Locale } }) {
  const i18n = useI18n();
  const { t } = i18n;
  const s = t.accounts.settings;
  const qc = useQueryClient();
  const [displayName, setDisplayName] = useState(initial.display_name ?? "");
  const [language, setLanguage] = useState<Locale>(initial.language);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = useMutation({
    mutationFn: updateProfile,
    onSuccess: (p) => {
      qc.setQueryData(["profile"], p);
      // The interface follows the stored language at once (the locale cookie is what the server renders with).
      document.cookie = `${LOCALE_COOKIE}=${p.language}; path=/; max-age=31536000; samesite=lax`;
      if (p.language !== initial.language) window.location.reload();
      else setMessage({ ok: true, text: s.profileSaved });
    },
    onError: (e) => setMessage({ ok: false, text: fmt(s.error, { message: errorText(e, i18n, profileLabels(s)) }) }),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkWith(ProfilePatchSchema, { display_name: displayName.trim() || null, language }, i18n, profileLabels(s));
    if (!checked.ok) return setMessage({ ok: false, text: [...checked.errors.values()].join(" ") });
    save.mutate(checked.data);
  }
  return (
    <Card className="space-y-3 p-4">
      <form onSubmit={submit} className="space-y-3">
        <div>
          <Label htmlFor="display-name">{s.displayName}</Label>
          <Input id="display-name" value={displayName} maxLength={100} onChange={(e) => setDisplayName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="language">{s.language}</Label>
          <select id="language" className="h-9 rounded-control border border-line-strong bg-surface px-2" value={language} onChange={(e) => setLanguage(e.target.value as Locale)}>
            {INTERFACE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {s.languages[l]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={save.isPending}>
          {s.saveProfile}
        </Button>
      </form>
      {message ? <Notice tone={message.ok ? "ok" : "danger"}>{message.text}</Notice> : null}
    </Card>
  );
}

function PasswordForm() {
  const i18n = useI18n();
  const { t } = i18n;
  const s = t.accounts.settings;
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => (setMessage({ ok: true, text: s.passwordChanged }), setCurrent(""), setNext("")),
    onError: (e) => setMessage({ ok: false, text: fmt(s.error, { message: errorText(e, i18n, passwordLabels(s)) }) }),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = checkWith(ChangePasswordSchema, { current_password: current, new_password: next }, i18n, passwordLabels(s));
    if (!checked.ok) return setFieldError([...checked.errors.values()].join(" "));
    setFieldError(null);
    change.mutate(checked.data);
  }
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">{s.changePassword}</h2>
      <form onSubmit={submit} className="space-y-3">
        <div>
          <Label htmlFor="current-password">{s.currentPassword}</Label>
          <Input id="current-password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="new-password">{s.newPassword}</Label>
          <Input id="new-password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} aria-invalid={fieldError ? true : undefined} />
          {fieldError ? <FieldError>{fieldError}</FieldError> : null}
        </div>
        <Button type="submit" disabled={change.isPending}>
          {s.changePassword}
        </Button>
      </form>
      {message ? <Notice tone={message.ok ? "ok" : "danger"}>{message.text}</Notice> : null}
    </Card>
  );
}

function DeleteAccountForm() {
  const i18n = useI18n();
  const { t } = i18n;
  const s = t.accounts.settings;
  const router = useRouter();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      // The session is gone with the account: the next render is signed out.
      router.push("/");
      router.refresh();
    },
    onError: (e) => setError(fmt(s.error, { message: errorText(e, i18n, { confirmation: fmt(s.deleteConfirm, { word: DELETE_ACCOUNT_CONFIRMATION }) }) })),
  });
  return (
    <Card className="space-y-3 border-danger p-4">
      <h2 className="font-semibold">{s.deleteAccount}</h2>
      <p className="text-sm text-muted">{s.deleteWarning}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          remove.mutate(typed);
        }}
        className="space-y-3"
      >
        <div>
          <Label htmlFor="delete-confirm">{fmt(s.deleteConfirm, { word: DELETE_ACCOUNT_CONFIRMATION })}</Label>
          <Input id="delete-confirm" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
        </div>
        <Button type="submit" variant="danger" disabled={typed !== DELETE_ACCOUNT_CONFIRMATION || remove.isPending}>
          {s.deleteButton}
        </Button>
      </form>
      {error ? <Notice tone="danger">{error}</Notice> : null}
    </Card>
  );
}

function AlertsTab() {
  const { t } = useI18n();
  const s = t.accounts.settings;
  const qc = useQueryClient();
  const profile = useQuery({ queryKey: ["profile"], queryFn: getProfile });
  // Every saved search (at most 200 per user: two pages), then the alerted ones.
  const alerted = useQuery({
    queryKey: ["saved-searches", "alerted"],
    queryFn: async () => {
      const first = await listSavedSearches({ limit: 100 });
      const rest = first.has_more ? (await listSavedSearches({ limit: 100, page: 2 })).saved_searches : [];
      return [...first.saved_searches, ...rest].filter((x) => x.alert.enabled);
    },
  });
  const pause = useMutation({
    mutationFn: (paused: boolean) => updateProfile({ alerts_paused: paused }),
    onSuccess: (p) => qc.setQueryData(["profile"], p),
  });
  const frequency = useMutation({
    mutationFn: ({ id, f }: { id: string; f: AlertFrequency }) => updateSavedSearch(id, { alert: { frequency: f } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["saved-searches"] }),
  });
  if (profile.isPending || alerted.isPending) return <Skeleton className="h-24" aria-label={s.loading} />;
  if (profile.isError || alerted.isError) return <Notice tone="danger">{fmt(s.error, { message: (profile.error ?? alerted.error)?.message ?? "" })}</Notice>;
  const paused = profile.data.alerts_paused;
  return (
    <div className="space-y-4">
      {paused ? <Notice tone="warn">{s.alertsPaused}</Notice> : null}
      <Button variant={paused ? "primary" : "secondary"} onClick={() => pause.mutate(!paused)} disabled={pause.isPending}>
        {paused ? s.resume : s.pauseAll}
      </Button>
      {alerted.data.length === 0 ? (
        <p className="text-muted">
          {s.alertsEmpty} <Link className="underline" href="/saved">{t.accounts.saved.title}</Link>
        </p>
      ) : (
        <ul className="space-y-2">
          {alerted.data.map((x) => (
            <li key={x.id} className="flex flex-wrap items-center justify-between gap-2 rounded-card border border-line p-3">
              <Link href={savedSearchHref(x)} className="underline">
                {x.name}
              </Link>
              <select
                aria-label={`${t.accounts.save.frequency}: ${x.name}`}
                className="h-8 rounded-control border border-line-strong bg-surface px-2 text-sm"
                value={x.alert.frequency}
                onChange={(e) => frequency.mutate({ id: x.id, f: e.target.value as AlertFrequency })}
              >
                {ALERT_FREQUENCIES.map((f) => (
                  <option key={f} value={f}>
                    {t.accounts.frequency[f]}
                  </option>
                ))}
              </select>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function EmbeddingsTab() {
  const i18n = useI18n();
  const { locale, t } = i18n;
  const s = t.accounts.settings;
  const qc = useQueryClient();
  // Everyone sees the embedder; only admins may switch it (the server answers 403 to anyone else).
  const isAdmin = useSessionUser()?.role === "admin";
  // Poll while a switch runs (progress: done/total), then stop.
  const q = useQuery({
    queryKey: ["embeddings"],
    queryFn: getEmbeddings,
    refetchInterval: (query) => (query.state.data?.reembed?.state === "running" ? 1000 : false),
  });
  const sw = useMutation({
    mutationFn: switchEmbeddings,
    onSuccess: (data) => qc.setQueryData(["embeddings"], data),
  });
  if (q.isPending) return <Skeleton className="h-24" aria-label={s.loading} />;
  if (q.isError) return <Notice tone="danger">{fmt(s.error, { message: q.error.message })}</Notice>;
  const dims = (n: number | null) => (n ? ` · ${plural(locale, n, s.dimensions)}` : "");
  const option = (id: string) => [q.data.active, ...q.data.available].find((e) => e.id === id);
  const label = (id: string) => embedderLabel(s.embedderLabels, id, option(id)?.label ?? id);
  const r = q.data.reembed;
  const running = r?.state === "running";
  return (
    <div className="space-y-3">
      <p>
        {s.embeddingsActive}: <strong data-testid="active-embedder" data-embedder-id={q.data.active.id}>
          {label(q.data.active.id)}
        </strong>
        {dims(q.data.active.dimensions)}
      </p>
      {r ? (
        <div aria-live="polite" data-testid="reembed-progress" data-state={r.state}>
          {r.state === "running" ? (
            <Notice tone="info">{plural(locale, r.total, s.embeddingsRunning, { id: label(r.id), done: formatNumber(locale, r.done), started: formatDateTime(locale, r.started_at) })}</Notice>
          ) : r.state === "completed" ? (
            <Notice tone="info">{fmt(s.embeddingsCompleted, { id: label(r.id) })}</Notice>
          ) : (
            <Notice tone="danger">{fmt(s.embeddingsFailed, { id: label(r.id), error: isAdmin ? (r.error ?? "") : "" })}</Notice>
          )}
        </div>
      ) : null}
      <h2 className="text-sm font-medium text-muted">{s.embeddingsAvailable}</h2>
      <ul className="list-disc pl-5 text-sm">
        {q.data.available.map((e) => (
          <li key={e.id} className="space-x-2">
            <span>
              {label(e.id)}
              {dims(e.dimensions)}
            </span>
            {isAdmin && e.id !== q.data.active.id ? (
              <Button type="button" variant="secondary" disabled={running || sw.isPending} onClick={() => sw.mutate(e.id)}>
                {s.embeddingsSwitch}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {sw.isError ? <Notice tone="danger">{fmt(s.error, { message: errorText(sw.error, i18n, { id: s.embeddingsAvailable }) })}</Notice> : null}
      <p className="text-sm text-muted">{s.embeddingsNote}</p>
    </div>
  );
}
