import type { Json } from "@/lib/supabase/database.types";
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";
import type { Identity } from "./identity";

export interface AdminAction {
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: Json | null;
  after?: Json | null;
}

/**
 * Record one admin write in admin_audit_log (shown on /admin/activity). Call it after the write succeeded, with the
 * caller's own client (the database takes the actor from the token) or a service client acting for `identity`.
 */
export async function recordAdminAction(db: DbClient, identity: Identity, a: AdminAction): Promise<void> {
  const { error } = await db.rpc("record_admin_action", {
    p_action: a.action,
    p_target_type: a.targetType,
    p_target_id: a.targetId ?? undefined,
    p_before: a.before ?? undefined,
    p_after: a.after ?? undefined,
    p_actor_id: identity.userId ?? undefined,
  });
  if (error) throw fromDatabaseError(error);
}
