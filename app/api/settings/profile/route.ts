import { withRoute } from "@/lib/api/route";
import { getProfile, updateProfile } from "@/lib/backend/settings/profile";
import { ProfilePatchSchema } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/** GET /api/settings/profile → {email, display_name, language, alerts_paused}. */
export const GET = withRoute({ auth: "user" }, async ({ identity }) => getProfile(identity));

/** PATCH /api/settings/profile {display_name?, language?, alerts_paused?} → the profile. */
export const PATCH = withRoute({ auth: "user", body: ProfilePatchSchema }, async ({ identity, body }) => updateProfile(identity, body));
