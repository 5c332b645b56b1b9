import { z } from "zod";
import { withRoute } from "@/lib/api/route";
import { config } from "@/lib/config";
import { recordAdminAction } from "@/lib/backend/admin-audit";
import { runAlertDigest } from "@/lib/backend/alerts/run";
import { ALERT_FREQUENCIES } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  dry_run: z.boolean().default(false),
  frequencies: z.array(z.enum(ALERT_FREQUENCIES)).min(1).max(2).optional(),
});

/**
 * POST /api/admin/alerts/run {dry_run?, frequencies?} → the digest run's report (admins only): the scheduled digest
 * on demand, e.g. to see a digest at /admin/mail right away. Idempotent like the scheduled run; recorded in the audit log.
 */
export const POST = withRoute({ auth: "admin", body: Body }, async ({ req, body, identity }) => {
  // Links point at APP_URL when set, else at the host the admin is using (Next's nextUrl says localhost in dev).
  const host = req.headers.get("host");
  const appUrl = config().APP_URL ?? (host ? `${req.nextUrl.protocol}//${host}` : req.nextUrl.origin);
  const report = await runAlertDigest({ dryRun: body.dry_run, frequencies: body.frequencies, appUrl });
  if (!body.dry_run) {
    await recordAdminAction(identity.db, identity, {
      action: "alerts.run",
      targetType: "alert_digest",
      targetId: report.runId,
      before: null,
      after: { mails_sent: report.mailsSent, mails_failed: report.mailsFailed, judgments: report.judgmentsListed },
    });
  }
  return { ...report, details: report.details.filter((d) => d.status !== "nothing-new") };
});
