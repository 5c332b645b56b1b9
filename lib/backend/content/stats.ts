import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";

/** GET /api/admin/content/stats: blog and publication counts by status (plus contact messages by status). */
export interface ContentStats {
  blog: { draft: number; published: number; scheduled: number; archived: number };
  publications: { draft: number; published: number };
  contact_messages: { new: number; read: number; archived: number };
}

export async function contentStats(db: DbClient): Promise<ContentStats> {
  const { data, error } = await db.rpc("content_stats");
  if (error) throw fromDatabaseError(error);
  return data as unknown as ContentStats; // one SQL function builds exactly these keys (checked over HTTP)
}
