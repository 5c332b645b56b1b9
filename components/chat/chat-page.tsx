"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState } from "react";
import { FilterDrawer } from "@/components/extractions/filter-drawer";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Input, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { apiFetch, errorFromBody } from "@/lib/client/api";
import { toApiFilter, type PageFilter } from "@/lib/client/filter-codec";
import { track } from "@/lib/events/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

interface Source { id: string; case_number: string | null; title: string | null; relevance: number; excerpt: string; position: number }
interface Meta { model: string | null; mode: "llm" | "extractive" | "rules"; tokens_used: number; retrieval_time_ms: number; generation_time_ms: number }
interface Msg { key: string; id?: string | null; role: "user" | "assistant"; content: string; sources: Source[]; metadata?: Meta; error?: boolean; stopped?: boolean; pending?: boolean; retrievalQuery?: string }
interface ThreadSummary { id: string; title: string; updated_at: string; message_count: number }
type StreamEvent =
  | { type: "token"; content: string }
  | { type: "sources"; sources: Source[]; retrieval_query?: string }
  | { type: "done"; thread_id: string; message_id: string | null; metadata: Meta; error?: { code: string; message: string } };

let keySeq = 0;
const nextKey = () => `m${++keySeq}`;

/** A link to the judgment that scrolls to the passage (a text fragment: the browser finds and highlights it). */
export function passageHref(s: Pick<Source, "id" | "excerpt">): string {
  const words = s.excerpt.split(/\s+/).filter(Boolean);
  // The excerpt may start mid-sentence; a few words from its start are still verbatim text of the judgment.
  const snippet = words.slice(words.length > 12 ? 1 : 0, words.length > 12 ? 9 : 8).join(" ");
  return snippet ? `/documents/${s.id}#:~:text=${encodeURIComponent(snippet).replace(/-/g, "%2D")}` : `/documents/${s.id}`;
}

/** Read a server-sent-event body, calling `onEvent` for each `data:` object as it arrives. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (e: StreamEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (data) onEvent(JSON.parse(data) as StreamEvent);
      cut = buffer.indexOf("\n\n");
    }
  }
}

export function ChatPage() {
  const { t } = useI18n();
  const c = t.assistants.chat;
  const [threads, setThreads] = useState<ThreadSummary[] | null>(null);
  const [threadsError, setThreadsError] = useState(false);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [messages, setMessages] = useState<Msg[]>([]);
  const [loadingThread, setLoadingThread] = useState(false);
  const [input, setInput] = useState("");
  const [streaming, setStreaming] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [filter, setFilter] = useState<PageFilter>({});
  const [draft, setDraft] = useState<PageFilter>({});
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [rated, setRated] = useState<Record<string, "up" | "down">>({});
  const abortRef = useRef<AbortController | null>(null);

  const loadThreads = useCallback(
    () =>
      apiFetch<{ threads: ThreadSummary[] }>("/api/chat/threads").then(
        (r) => {
          setThreads(r.threads);
          setThreadsError(false);
        },
        () => setThreadsError(true),
      ),
    [],
  );

  useEffect(() => {
    void loadThreads();
  }, [loadThreads]);

  const openThread = async (id: string) => {
    abortRef.current?.abort();
    setThreadId(id);
    setLoadingThread(true);
    setSendError(null);
    try {
      const r = await apiFetch<{ messages: Array<{ id: string; role: "user" | "assistant"; content: string; sources: Source[]; metadata: Meta & { retrieval_query?: unknown } }> }>(`/api/chat/threads/${id}`);
      setMessages(
        r.messages.map((m) => ({
          ...m,
          key: nextKey(),
          metadata: m.role === "assistant" ? m.metadata : undefined,
          retrievalQuery: m.role === "assistant" && typeof m.metadata.retrieval_query === "string" ? m.metadata.retrieval_query : undefined,
        })),
      );
      setSelected(null);
    } catch {
      setSendError(c.threadsError);
    } finally {
      setLoadingThread(false);
    }
  };

  const newThread = () => {
    abortRef.current?.abort();
    setThreadId(null);
    setMessages([]);
    setSelected(null);
    setSendError(null);
  };

  const patchLast = (f: (m: Msg) => Msg) => setMessages((ms) => (ms.length ? [...ms.slice(0, -1), f(ms[ms.length - 1])] : ms));

  const send = async () => {
    const message = input.trim();
    if (!message || streaming) return;
    setSendError(null);
    setInput("");
    const answerKey = nextKey();
    setMessages((ms) => [...ms, { key: nextKey(), role: "user", content: message, sources: [] }, { key: answerKey, role: "assistant", content: "", sources: [], pending: true }]);
    setSelected(answerKey);
    const abort = new AbortController();
    abortRef.current = abort;
    setStreaming(true);
    const filters = toApiFilter(filter);
    try {
      const res = await fetch("/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        credentials: "same-origin",
        body: JSON.stringify({ message, thread_id: threadId ?? undefined, filters: Object.keys(filters).length ? filters : undefined, stream: true }),
        signal: abort.signal,
      });
      if (!res.ok || !res.body) {
        const text = await res.text();
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        throw errorFromBody(res.status, body);
      }
      await readEvents(res.body, (e) => {
        if (e.type === "sources") patchLast((m) => ({ ...m, sources: e.sources, retrievalQuery: e.retrieval_query }));
        else if (e.type === "token") patchLast((m) => ({ ...m, pending: false, content: m.content + e.content }));
        else {
          patchLast((m) => ({ ...m, pending: false, id: e.message_id, metadata: e.metadata, error: Boolean(e.error) }));
          setThreadId(e.thread_id);
        }
      });
      void loadThreads();
    } catch (e) {
      if (abort.signal.aborted) {
        patchLast((m) => ({ ...m, pending: false, stopped: true }));
      } else {
        patchLast((m) => ({ ...m, pending: false, error: true }));
        setSendError(e instanceof Error && e.message ? e.message : c.sendError);
      }
    } finally {
      setStreaming(false);
      abortRef.current = null;
    }
  };

  const stop = () => abortRef.current?.abort();

  const copy = async (m: Msg) => {
    await navigator.clipboard.writeText(m.content);
    setCopied(m.key);
    setTimeout(() => setCopied((k) => (k === m.key ? null : k)), 2000);
  };

  const rate = (m: Msg, v: "up" | "down") => {
    if (rated[m.key]) return;
    track(v === "up" ? "chat_feedback_thumbs_up" : "chat_feedback_thumbs_down");
    setRated((r) => ({ ...r, [m.key]: v }));
  };

  const saveRename = async () => {
    if (!renaming || !renaming.title.trim()) return;
    await apiFetch(`/api/chat/threads/${renaming.id}`, { method: "PATCH", json: { title: renaming.title.trim() } }).catch(() => setThreadsError(true));
    setRenaming(null);
    void loadThreads();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    await apiFetch(`/api/chat/threads/${deleting}`, { method: "DELETE" }).catch(() => setThreadsError(true));
    if (deleting === threadId) newThread();
    setDeleting(null);
    void loadThreads();
  };

  const shown = messages.find((m) => m.key === selected) ?? [...messages].reverse().find((m) => m.role === "assistant");
  const activeFilters = Object.keys(filter).length;
  const modeLabel = (m: Meta) => (m.mode === "llm" ? fmt(t.assistants.modeLlm, { model: m.model ?? "" }) : t.assistants.modeExtractive);

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)_20rem]">
      <nav aria-label={c.threads} className="space-y-2">
        <Button variant="secondary" className="w-full" onClick={newThread} data-testid="chat-new">
          {c.newThread}
        </Button>
        <h2 className="text-sm font-semibold text-ink-muted">{c.threads}</h2>
        {threadsError ? <Notice tone="danger">{c.threadsError}</Notice> : null}
        {threads === null && !threadsError ? <p className="text-sm text-ink-muted">{c.loadingThreads}</p> : null}
        {threads?.length === 0 ? <p className="text-sm text-ink-muted">{c.noThreads}</p> : null}
        <ul className="space-y-1" data-testid="chat-threads">
          {threads?.map((th) => (
            <li key={th.id} className={`rounded-control p-1 ${th.id === threadId ? "bg-sunken" : ""}`}>
              {renaming?.id === th.id ? (
                <form
                  className="flex gap-1"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void saveRename();
                  }}
                >
                  <Input aria-label={c.renameLabel} value={renaming.title} maxLength={200} onChange={(e) => setRenaming({ id: th.id, title: e.target.value })} autoFocus />
                  <Button size="sm" type="submit">
                    {c.save}
                  </Button>
                </form>
              ) : (
                <div className="flex items-center gap-1">
                  <button type="button" className="min-w-0 flex-1 truncate text-left text-sm hover:underline" onClick={() => void openThread(th.id)} aria-current={th.id === threadId ? "true" : undefined}>
                    {th.title}
                  </button>
                  <Button size="sm" variant="ghost" aria-label={`${c.rename}: ${th.title}`} onClick={() => setRenaming({ id: th.id, title: th.title })}>
                    ✎
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`${c.delete}: ${th.title}`} onClick={() => setDeleting(th.id)}>
                    ×
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </nav>

      <section aria-label={c.title} className="min-w-0 space-y-4">
        {loadingThread ? <p className="text-sm text-ink-muted">{c.loadingThread}</p> : null}
        {messages.length === 0 && !loadingThread ? <p className="text-sm text-ink-muted">{c.empty}</p> : null}
        <ol className="space-y-4" aria-live="polite">
          {messages.map((m, i) => (
            <li key={m.key} className={m.role === "user" ? "rounded-card bg-sunken p-3" : "rounded-card border border-line p-3"}>
              <div className="mb-1 flex flex-wrap items-center gap-2 text-xs font-semibold text-ink-muted">
                <span>{m.role === "user" ? c.you : c.assistant}</span>
                {m.metadata ? (
                  <span data-testid="chat-mode">
                    <Badge>{modeLabel(m.metadata)}</Badge>
                  </span>
                ) : null}
              </div>
              {/* A follow-up rewritten against the thread says what was searched for instead of the question. */}
              {m.role === "assistant" && m.retrievalQuery && m.retrievalQuery !== messages[i - 1]?.content.trim() ? (
                <p className="mb-1 text-xs text-ink-muted" data-testid="chat-searched-for">
                  {fmt(c.searchedFor, { query: m.retrievalQuery })}
                </p>
              ) : null}
              {m.pending ? <p className="text-sm text-ink-muted">{c.thinking}</p> : null}
              <div className="whitespace-pre-wrap text-sm" data-testid={m.role === "assistant" ? "chat-answer" : undefined}>
                {m.content}
              </div>
              {m.error ? <Notice tone="danger" className="mt-2">{c.error}</Notice> : null}
              {m.stopped ? <p className="mt-2 text-xs text-ink-muted">{c.stopped}</p> : null}
              {m.role === "assistant" && !m.pending && m.content ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button size="sm" variant="ghost" onClick={() => setSelected(m.key)}>
                    {c.sources} ({m.sources.length})
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void copy(m)}>
                    {copied === m.key ? c.copied : c.copy}
                  </Button>
                  {m.metadata && !m.error ? (
                    rated[m.key] ? (
                      <span className="text-xs text-ink-muted" role="status">{c.thanks}</span>
                    ) : (
                      <>
                        <Button size="sm" variant="ghost" aria-label={c.thumbsUp} onClick={() => rate(m, "up")}>
                          👍
                        </Button>
                        <Button size="sm" variant="ghost" aria-label={c.thumbsDown} onClick={() => rate(m, "down")}>
                          👎
                        </Button>
                      </>
                    )
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ol>
        {sendError ? <Notice tone="danger">{sendError}</Notice> : null}
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Label htmlFor="chat-input">{c.inputLabel}</Label>
          <Textarea
            id="chat-input"
            data-testid="chat-input"
            value={input}
            maxLength={4000}
            rows={3}
            placeholder={c.placeholder}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault();
                void send();
              }
            }}
          />
          <div className="flex flex-wrap gap-2">
            {streaming ? (
              <Button type="button" variant="danger" onClick={stop} data-testid="chat-stop">
                {c.stop}
              </Button>
            ) : (
              <Button type="submit" disabled={!input.trim()} data-testid="chat-send">
                {c.send}
              </Button>
            )}
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setDraft(filter);
                setDrawerOpen(true);
              }}
            >
              {activeFilters ? fmt(c.filtersActive, { count: activeFilters }) : c.filters}
            </Button>
          </div>
        </form>
        <FilterDrawer
          open={drawerOpen}
          onOpenChange={setDrawerOpen}
          draft={draft}
          setDraft={setDraft}
          onApply={() => {
            setFilter(draft);
            setDrawerOpen(false);
          }}
        />
      </section>

      <aside aria-label={c.sources} className="space-y-2" data-testid="chat-sources">
        <h2 className="text-sm font-semibold text-ink-muted">{c.sources}</h2>
        {shown && !shown.pending && shown.sources.length === 0 && shown.metadata ? <p className="text-sm text-ink-muted">{c.noSources}</p> : null}
        <ol className="space-y-2">
          {shown?.sources.map((s, i) => (
            <li key={`${s.id}:${s.position}`} className="rounded-card border border-line p-2 text-sm">
              <Link
                href={passageHref(s)}
                className="font-medium text-brand underline"
                data-testid="chat-source-link"
                aria-label={fmt(c.openSource, { label: s.case_number ?? s.title ?? String(i + 1) })}
              >
                [{i + 1}] {s.case_number ?? s.title ?? s.id}
              </Link>
              {s.title && s.case_number ? <p className="text-xs text-ink-muted">{s.title}</p> : null}
              <p className="text-xs text-ink-muted">{fmt(c.relevance, { value: s.relevance.toFixed(2) })}</p>
              <p className="mt-1 line-clamp-4 text-xs">{s.excerpt}</p>
            </li>
          ))}
        </ol>
      </aside>

      <ConfirmDialog
        open={deleting !== null}
        title={c.deleteTitle}
        description={c.deleteBody}
        confirmLabel={c.delete}
        cancelLabel={t.common.cancel}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
