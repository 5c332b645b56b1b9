/** Admin writes: creating and deleting a line, always through the caller's own client (RLS gates them too). */
import { z } from "zod";
import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { ApiError, fromDatabaseError, notFound } from "@/lib/errors";
import { cosine } from "@/lib/analysis/kmeans";
import type { Embedder } from "@/lib/search/types";
import { recordAdminAction } from "@/lib/backend/admin-audit";
import type { Identity } from "@/lib/backend/identity";
import type { CreateLineRequest } from "@/lib/schema/requests/analysis-lines";
import { LineRow, centroidOf, embedRows, judgmentRows, round, unit } from "./rows";
import type { ReasoningLine } from "./types";

/** POST /create: store a line (admin). Similarities to the line's centroid are computed when not given. */
export async function createLine(db: DbClient, identity: Identity, embedder: Embedder, req: CreateLineRequest): Promise<ReasoningLine> {
  const members = req.members ?? (req.judgment_ids ?? []).map((judgment_id) => ({ judgment_id, similarity: undefined, role: undefined }));
  const ids = [...new Set(members.map((m) => m.judgment_id.toLowerCase()))];
  if (members.some((m) => m.similarity === undefined)) {
    const rows = await judgmentRows(db, ids);
    if (rows.length !== ids.length) throw new ApiError("VALIDATION_ERROR", "Some judgment ids do not exist.", { fields: [{ field: "judgment_ids", message: "unknown judgment id" }] });
    const vectors = await embedRows(embedder, rows);
    const centroid = centroidOf(vectors);
    const sim = new Map(rows.map((r, i) => [r.id, round(cosine(unit(vectors[i]), centroid))]));
    for (const m of members) m.similarity ??= sim.get(m.judgment_id.toLowerCase());
  }
  const { data, error } = await db.rpc("reasoning_line_create", {
    p_label: req.label,
    p_description: req.description ?? null,
    p_keywords: req.keywords,
    p_legal_question: req.legal_question ?? null,
    p_members: jsonArg(members.map((m) => ({ judgment_id: m.judgment_id, similarity: m.similarity ?? null, role: m.role ?? null }))),
  });
  if (error) throw fromDatabaseError(error);
  const line = LineRow.parse(data);
  await recordAdminAction(db, identity, { action: "reasoning_line.create", targetType: "reasoning_line", targetId: line.id, after: line as unknown as Json });
  return line;
}

/** DELETE /{id}: status → deleted (admin); members and events stay. 404 for a line that is not there (or already deleted). */
export async function deleteLine(db: DbClient, identity: Identity, id: string): Promise<{ id: string; status: "deleted" }> {
  const { data, error } = await db.rpc("reasoning_line_delete", { p_id: id });
  if (error) {
    const e = fromDatabaseError(error);
    throw e.status === 404 ? notFound("Reasoning line") : e;
  }
  const change = z.object({ before: z.string(), after: z.string() }).parse(data);
  await recordAdminAction(db, identity, {
    action: "reasoning_line.delete",
    targetType: "reasoning_line",
    targetId: id,
    before: { status: change.before },
    after: { status: change.after },
  });
  return { id, status: "deleted" };
}
