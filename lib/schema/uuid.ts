import { z } from "zod";

/**
 * The one UUID check: any 8-4-4-4-12 hex text in any letter case (zod's \`guid\`), exactly what Postgres' uuid type
 * accepts, so no id the database would take is refused here (the SQL applies the same loose test to collection ids).
 * Every id the service mints (gen_random_uuid, the seed's v5 ids, crypto.randomUUID) has that form.
 */
export const uuidSchema = z.guid("must be a UUID");

export const isUuid = (v: unknown): v is string => uuidSchema.safeParse(v).success;
