import { z } from "zod";
import { safeText } from "@/lib/schema/text";

/**
 * Shortest password a new account may have (security review L4); the local gateway enforces the same floor
 * (supabase/local/gateway/auth/users.ts), and a real Supabase project needs it set in its auth settings.
 */
export const PASSWORD_MIN_LENGTH = 10;

/** Sign-in: any non-empty password (accounts made before the floor was raised still sign in). */
export const CredentialsSchema = z.strictObject({
  email: z.email().max(254),
  password: safeText().min(1).max(72),
});
export type Credentials = z.infer<typeof CredentialsSchema>;

/** Sign-up: the same shape with the password floor; too short → 422 VALIDATION_ERROR naming `password`. */
export const SignUpSchema = CredentialsSchema.extend({
  password: safeText().min(PASSWORD_MIN_LENGTH, `The password needs at least ${PASSWORD_MIN_LENGTH} characters`).max(72),
});
