import { z } from "zod";

export const CredentialsSchema = z.strictObject({
  email: z.email().max(254),
  password: z.string().min(1).max(72),
});
export type Credentials = z.infer<typeof CredentialsSchema>;
