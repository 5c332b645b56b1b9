"use client";

import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useI18n } from "@/lib/i18n/client";
import { EXAMPLES, GET_EXAMPLES } from "./examples";
import { jsonPayload, sendTryRequest } from "./send-request";

interface Op {
  method: "GET" | "POST";
  path: string;
  summary: string;
}

type OpenApiPaths = Record<string, Record<string, { summary?: string; security?: unknown[] }>>;

interface Answer {
  status: number;
  remaining: string | null;
  body: string;
}

/**
 * "Try it": a request to /api/v1 with the reader's own key (kept in component state only: never stored or sent
 * anywhere but the request itself). The operations come from the served OpenAPI document.
 */
export function TryIt({ openapiUrl }: { openapiUrl: string }) {
  const { t } = useI18n();
  const D = t.developers;
  const [ops, setOps] = useState<Op[]>([]);
  const [key, setKey] = useState("");
  const [choice, setChoice] = useState(0);
  const [path, setPath] = useState("/api/v1/health");
  const [body, setBody] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const ids = { key: useId(), op: useId(), path: useId(), body: useId() };

  useEffect(() => {
    let live = true;
    fetch(openapiUrl)
      .then((r) => r.json() as Promise<{ paths: OpenApiPaths }>)
      .then((doc) => {
        if (!live) return;
        const list = Object.entries(doc.paths).flatMap(([p, methods]) =>
          Object.entries(methods).map(([m, op]) => ({ method: m.toUpperCase() as Op["method"], path: p, summary: op.summary ?? p })),
        );
        setOps(list);
      })
      .catch(() => live && setError(D.networkError));
    return () => {
      live = false;
    };
  }, [openapiUrl, D.networkError]);

  function pick(index: number) {
    setChoice(index);
    const op = ops[index];
    if (!op) return;
    setPath(GET_EXAMPLES[op.path] ?? op.path);
    setBody(op.method === "POST" ? JSON.stringify(EXAMPLES[op.path] ?? {}, null, 2) : "");
    setAnswer(null);
  }

  async function send(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!key.trim()) return setError(D.needKey);
    const op = ops[choice];
    const method = op?.method ?? "GET";
    const payload = method === "POST" ? jsonPayload(body) : undefined;
    if (payload === null) return setError(D.badJson);
    setBusy(true);
    try {
      setAnswer(await sendTryRequest(path, method, key.trim(), payload));
    } catch {
      setError(D.networkError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void send(e)} className="space-y-4" data-testid="try-it" noValidate>
      <div>
        <Label htmlFor={ids.key}>{D.keyLabel}</Label>
        <Input id={ids.key} type="password" autoComplete="off" value={key} placeholder={D.keyPlaceholder} onChange={(e) => setKey(e.target.value)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={ids.op}>{D.endpointLabel}</Label>
          <select
            id={ids.op}
            className="block h-10 w-full rounded-control border border-line-strong bg-surface px-3 text-sm"
            value={choice}
            onChange={(e) => pick(Number(e.target.value))}
          >
            {ops.map((op, i) => (
              <option key={`${op.method} ${op.path}`} value={i}>
                {op.method} {op.path}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor={ids.path}>{D.pathLabel}</Label>
          <Input id={ids.path} value={path} onChange={(e) => setPath(e.target.value)} spellCheck={false} />
        </div>
      </div>
      {ops[choice]?.method === "POST" && (
        <div>
          <Label htmlFor={ids.body}>{D.bodyLabel}</Label>
          <Textarea id={ids.body} rows={6} value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} className="font-mono" />
        </div>
      )}
      <Button type="submit" disabled={busy}>
        {busy ? D.sending : D.send}
      </Button>
      {error && <Notice tone="danger">{error}</Notice>}
      {answer && (
        <div data-testid="try-it-answer" aria-live="polite">
          <p className="text-sm">
            {D.status}: <strong data-testid="try-it-status">{answer.status}</strong>
            {answer.remaining !== null && ` · ${D.remaining}: ${answer.remaining}`}
          </p>
          <pre className="mt-2 max-h-96 overflow-auto rounded bg-sunken p-3 text-xs">{answer.body}</pre>
        </div>
      )}
    </form>
  );
}
