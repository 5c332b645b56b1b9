/**
 * Chat threads over the RPCs of supabase/migrations/20261126100000_chat_threads.sql, always with the
 * caller's client: RLS makes another user's thread invisible, which the API reports as a plain 404 (D-30).
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { isUuid } from "@/lib/schema/uuid";

export const threadNotFound = () => new ApiError("CHAT_THREAD_NOT_FOUND");

/** A path id must be a UUID before any lookup. */
export function chatThreadId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw new ApiError("INVALID_CHAT_THREAD_ID");
  return raw.toLowerCase();
}

export const ThreadListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const RenameThreadBody = z.strictObject({
  title: safeText().trim().min(1).max(200),
});

const Message = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  sources: z.array(z.record(z.string(), z.unknown())),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof Message>;

const ThreadRow = z.object({ id: z.string(), title: z.string(), created_at: z.string(), updated_at: z.string() });

export interface ChatThread {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  messages: ChatMessage[];
}

/** A title from the first message: its first line, at most 80 characters on a word boundary. */
export function threadTitle(message: string): string {
  const line = message.trim().split("\n")[0].trim();
  if (line.length <= 80) return line;
  const cut = line.slice(0, 80);
  const space = cut.lastIndexOf(" ");
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export async function listThreads(db: DbClient, q: z.infer<typeof ThreadListQuery>) {
  const { data, error } = await db.rpc("chat_list_threads", { p_limit: q.limit, p_offset: q.offset });
  if (error) throw fromDatabaseError(error);
  const rows = data ?? [];
  return {
    threads: rows.map((r) => ({ ...ThreadRow.parse(r), message_count: Number(r.message_count) })),
    total: rows.length ? Number(rows[0].total_count) : 0,
    limit: q.limit,
    offset: q.offset,
  };
}

export async function getThread(db: DbClient, id: string): Promise<ChatThread> {
  const { data, error } = await db.rpc("chat_get_thread", { p_id: id });
  if (error) throw fromDatabaseError(error);
  const row = data?.[0];
  if (!row) throw threadNotFound();
  return { ...ThreadRow.parse(row), messages: z.array(Message).parse(row.messages) };
}

export async function renameThread(db: DbClient, id: string, title: string) {
  const { data, error } = await db.rpc("chat_rename_thread", { p_id: id, p_title: title });
  if (error) throw fromDatabaseError(error);
  if (!data?.[0]) throw threadNotFound();
  return ThreadRow.parse(data[0]);
}

export async function deleteThread(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("chat_delete_thread", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw threadNotFound();
}

export async function createThread(db: DbClient, title: string): Promise<string> {
  const { data, error } = await db.rpc("chat_create_thread", { p_title: title });
  if (error || typeof data !== "string") throw fromDatabaseError(error);
  return data;
}

export async function addMessage(
  db: DbClient,
  m: { threadId: string; role: "user" | "assistant"; content: string; sources?: unknown[]; metadata?: Record<string, unknown> },
): Promise<string> {
  const { data, error } = await db.rpc("chat_add_message", {
    p_thread_id: m.threadId,
    p_role: m.role,
    p_content: m.content,
    p_sources: jsonArg(m.sources ?? []),
    p_metadata: jsonArg(m.metadata ?? {}),
  });
  if (error) throw fromDatabaseError(error);
  if (typeof data !== "string") throw threadNotFound();
  return data;
}
