/**
 * POST /api/settings/api-keys: the route validates with this and so does the settings form
 * (components/settings/api-keys-panel.tsx), so both refuse the same input with the same words.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";

export const API_KEY_NAME_MAX = 100;

export const CreateApiKeySchema = z.strictObject({
  name: safeText().trim().min(1, "Give the key a name.").max(API_KEY_NAME_MAX, `At most ${API_KEY_NAME_MAX} characters.`),
  /** Optional expiry (an ISO date-time with offset), which must lie in the future. Null or absent: never expires. */
  expires_at: z.iso
    .datetime({ offset: true, message: "must be an ISO date-time" })
    .refine((s) => Date.parse(s) > Date.now(), { message: "must be in the future", params: { messageKey: "future" } })
    .nullable()
    .optional(),
});
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;
