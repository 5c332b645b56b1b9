import { withRoute } from "@/lib/api/route";
import { createUserApiKey, listUserApiKeys } from "@/lib/backend/api-keys";
import { CreateApiKeySchema } from "@/lib/schema/requests/api-keys";

export const dynamic = "force-dynamic";

/** GET /api/settings/api-keys → {keys: [{id, name, prefix, created_at, last_used_at, expires_at}], max_active}: own active keys. */
export const GET = withRoute({ auth: "user" }, async ({ identity, serviceDb }) => listUserApiKeys(serviceDb(), identity.userId as string));

/**
 * POST /api/settings/api-keys {name, expires_at?} → 201 the key record plus `key`, shown this once (only its hash is
 * stored). At most API_KEYS_MAX_ACTIVE_PER_USER active keys: 409 API_KEY_LIMIT.
 */
export const POST = withRoute({ auth: "user", body: CreateApiKeySchema }, async ({ identity, body, serviceDb }) =>
  Response.json(await createUserApiKey(serviceDb(), identity.userId as string, { name: body.name, expiresAt: body.expires_at ?? null }), {
    status: 201,
    headers: { "Cache-Control": "no-store" },
  }),
);
