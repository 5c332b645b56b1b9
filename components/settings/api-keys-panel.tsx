"use client";

import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldError, FieldHint, Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import { createApiKey, listApiKeys, revokeApiKey, type UserApiKey } from "@/lib/client/api-keys-api";
import { apiFieldErrors, checkWith } from "@/lib/client/validation";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";
import { CreateApiKeySchema } from "@/lib/schema/requests/api-keys";

type Load = { state: "loading" } | { state: "error"; message: string } | { state: "ready"; keys: UserApiKey[]; max: number };

/**
 * The API keys tab of /settings: list the caller's active keys, create one (shown once, with a copy
 * button), revoke. The form is checked with the same zod schema as POST /api/settings/api-keys.
 */
export function ApiKeysPanel() {
  const i18n = useI18n();
  const { locale, t } = i18n;
  const D = t.developers;
  const labels = { name: D.nameLabel, expires_at: D.expiryLabel };
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ name?: string; expires_at?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<string | null>(null);
  const nameId = useId();
  const expiryId = useId();

  // Reads the list; the caller shows "loading" first when it wants to (the first render already does).
  const reload = useCallback(async () => {
    try {
      const body = await listApiKeys();
      setLoad({ state: "ready", keys: body.keys, max: body.max_active });
    } catch (e) {
      setLoad({ state: "error", message: errorMessage(e, D.keysLoadError) });
    }
  }, [D.keysLoadError]);

  const refresh = useCallback(() => {
    setLoad({ state: "loading" });
    return reload();
  }, [reload]);

  useEffect(() => {
    let live = true;
    listApiKeys().then(
      (body) => live && setLoad({ state: "ready", keys: body.keys, max: body.max_active }),
      (e: unknown) => live && setLoad({ state: "error", message: errorMessage(e, D.keysLoadError) }),
    );
    return () => {
      live = false;
    };
  }, [D.keysLoadError]);

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    // A date picked in the form means "until the end of that day" (UTC).
    const input = { name, expires_at: expiry ? `${expiry}T23:59:59Z` : null };
    const checked = checkWith(CreateApiKeySchema, input, i18n, labels);
    if (!checked.ok) {
      setFieldErrors({ name: checked.errors.get("name"), expires_at: checked.errors.get("expires_at") });
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      const made = await createApiKey(checked.data);
      setCreated(made.key);
      setCopied(false);
      setName("");
      setExpiry("");
      await reload();
    } catch (err) {
      const fields = apiFieldErrors(err, i18n, labels);
      if (fields) setFieldErrors({ name: fields.get("name"), expires_at: fields.get("expires_at") });
      else setFormError(err instanceof ApiRequestError && err.code === "API_KEY_LIMIT" ? D.limitReached : errorMessage(err, D.keysLoadError));
    } finally {
      setBusy(false);
    }
  }

  async function onRevoke(k: UserApiKey) {
    if (!window.confirm(fmt(D.revokeConfirm, { name: k.name }))) return;
    setRevoking(k.id);
    try {
      await revokeApiKey(k.id);
      await reload();
    } catch (err) {
      setFormError(errorMessage(err, D.keysLoadError));
    } finally {
      setRevoking(null);
    }
  }

  async function copyKey() {
    if (!created) return;
    await navigator.clipboard?.writeText(created).catch(() => undefined);
    setCopied(true);
  }

  return (
    <section aria-labelledby="api-keys-title" className="space-y-6" data-testid="api-keys-panel">
      <div>
        <h2 id="api-keys-title" className="text-lg font-semibold">
          {D.keysTitle}
        </h2>
        <p className="mt-1 text-sm text-muted">
          {plural(locale, load.state === "ready" ? load.max : 10, D.keysLead)}{" "}
          <a className="underline" href="/developers">
            {D.docsLink}
          </a>
        </p>
      </div>

      {created && (
        <Notice tone="ok" title={D.createdTitle}>
          <p>{D.createdOnce}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-sunken px-2 py-1 text-sm" data-testid="new-api-key">
              {created}
            </code>
            <Button type="button" size="sm" variant="secondary" onClick={() => void copyKey()}>
              {copied ? D.copied : D.copy}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setCreated(null)}>
              {D.dismiss}
            </Button>
          </div>
        </Notice>
      )}

      <form onSubmit={(e) => void onCreate(e)} className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end" noValidate>
        <div>
          <Label htmlFor={nameId}>{D.nameLabel}</Label>
          <Input
            id={nameId}
            value={name}
            placeholder={D.namePlaceholder}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={!!fieldErrors.name}
            aria-describedby={fieldErrors.name ? `${nameId}-err` : undefined}
          />
          <FieldError id={`${nameId}-err`}>{fieldErrors.name}</FieldError>
        </div>
        <div>
          <Label htmlFor={expiryId}>{D.expiryLabel}</Label>
          <Input
            id={expiryId}
            type="date"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
            aria-invalid={!!fieldErrors.expires_at}
            aria-describedby={`${expiryId}-hint`}
          />
          <FieldHint id={`${expiryId}-hint`}>{D.expiryHint}</FieldHint>
          <FieldError>{fieldErrors.expires_at}</FieldError>
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? D.creating : D.create}
        </Button>
      </form>
      {formError && <Notice tone="danger">{formError}</Notice>}

      {load.state === "loading" && <p className="text-sm text-muted" role="status">{D.keysLoading}</p>}
      {load.state === "error" && (
        <Notice tone="danger" title={D.keysLoadError}>
          <p>{load.message}</p>
          <Button type="button" size="sm" variant="secondary" className="mt-2" onClick={() => void refresh()}>
            {D.retry}
          </Button>
        </Notice>
      )}
      {load.state === "ready" && load.keys.length === 0 && <p className="text-sm text-muted">{D.keysEmpty}</p>}
      {load.state === "ready" && load.keys.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="py-2 pr-4">{D.colName}</th>
                <th scope="col" className="py-2 pr-4">{D.colPrefix}</th>
                <th scope="col" className="py-2 pr-4">{D.colCreated}</th>
                <th scope="col" className="py-2 pr-4">{D.colLastUsed}</th>
                <th scope="col" className="py-2 pr-4">{D.colExpires}</th>
                <th scope="col" className="py-2"><span className="sr-only">{D.revoke}</span></th>
              </tr>
            </thead>
            <tbody>
              {load.keys.map((k) => (
                <tr key={k.id} className="border-b border-line" data-testid="api-key-row">
                  <td className="py-2 pr-4">{k.name}</td>
                  <td className="py-2 pr-4"><code>{k.prefix}…</code></td>
                  <td className="py-2 pr-4">{formatDate(locale, k.created_at)}</td>
                  <td className="py-2 pr-4">{k.last_used_at ? formatDate(locale, k.last_used_at) : D.never}</td>
                  <td className="py-2 pr-4">{k.expires_at ? formatDate(locale, k.expires_at) : D.noExpiry}</td>
                  <td className="py-2 text-right">
                    <Button type="button" size="sm" variant="danger" disabled={revoking === k.id} onClick={() => void onRevoke(k)}>
                      {revoking === k.id ? D.revoking : D.revoke}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
