import bcrypt from "bcryptjs";
import type pg from "pg";
import { unprocessable, weakPasswordError } from "./errors";

/** Subset of auth.users the gateway reads (the bootstrap migration's columns). */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmation_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  /** A new address waiting for its confirmation link ('' or null: none). */
  email_change?: string | null;
  email_change_sent_at?: Date | null;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmation_sent_at, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, phone, banned_until, is_anonymous, email_change,
  email_change_sent_at`;

/**
 * Password bounds: 10 characters at least, the app's floor too (lib/schema/requests/auth.ts; security review L4:
 * GoTrue's default MinLength of 6 is too weak); bcrypt reads at most 72 bytes so longer is refused.
 */
export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_BYTES = 72;
const BCRYPT_COST = 10;

/**
 * bcrypt (cost 10) of a random string nobody knows: compared against when the e-mail is unknown, so an unknown
 * e-mail and a wrong password cost the same time.
 */
const DUMMY_HASH = "$2b$10$NJy2p.NsHFpBEWo76BDf3.vvFFdBYtSMt/PzwhYjTwiuWejxAvOaG";

export function checkPasswordStrength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw weakPasswordError(PASSWORD_MIN_LENGTH);
  if (Buffer.byteLength(password, "utf8") > PASSWORD_MAX_BYTES) {
    throw unprocessable("validation_failed", `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`);
  }
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** Constant-work password check: a missing user or hash still costs one bcrypt comparison. */
export async function passwordMatches(user: UserRow | null, password: string): Promise<boolean> {
  const hash = user?.encrypted_password || DUMMY_HASH;
  const ok = await bcrypt.compare(password, hash);
  return ok && !!user?.encrypted_password;
}

const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Trimmed, lower-cased e-mail, or null when it is not one (GoTrue: "Unable to validate email address"). */
export function normaliseEmail(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > 255 || !EMAIL_RE.test(email)) return null;
  return email;
}

export function isBanned(user: UserRow): boolean {
  return !!user.banned_until && user.banned_until.getTime() > Date.now();
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and is_sso_user = false limit 1`,
    [email],
  );
  return rows[0] ?? null;
}

export interface NewUser {
  email: string;
  passwordHash: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  confirmed: boolean;
  signedIn: boolean;
}

/**
 * Insert a user like GoTrue does for the email provider: raw_app_meta_data carries provider/providers plus whatever
 * an admin set (e.g. role), so triggers on auth.users see the same row shape as on Supabase.
 * A concurrent insert of the same e-mail surfaces as 23505 on users_email_partial_key; callers map it.
 */
export async function insertUser(db: Queryable, u: NewUser): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `insert into auth.users (instance_id, aud, role, email, encrypted_password, email_confirmed_at, last_sign_in_at,
       raw_app_meta_data, raw_user_meta_data, is_sso_user, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', $1, $2,
       case when $3 then now() end, case when $4 then now() end, $5::jsonb, $6::jsonb, false, false)
     returning ${USER_COLUMNS}`,
    [u.email, u.passwordHash, u.confirmed, u.signedIn, JSON.stringify(u.appMetadata), JSON.stringify(u.userMetadata)],
  );
  return rows[0];
}

export async function touchLastSignIn(db: Queryable, id: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [id],
  );
  return rows[0];
}

export interface UserChanges {
  email?: string;
  passwordHash?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  confirmEmail?: boolean;
}

export async function updateUser(db: Queryable, id: string, c: UserChanges): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set
       email = coalesce($2, email),
       encrypted_password = coalesce($3, encrypted_password),
       raw_user_meta_data = coalesce($4::jsonb, raw_user_meta_data),
       raw_app_meta_data = coalesce($5::jsonb, raw_app_meta_data),
       email_confirmed_at = case when $6 then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
       updated_at = now()
     where id = $1 returning ${USER_COLUMNS}`,
    [
      id,
      c.email ?? null,
      c.passwordHash ?? null,
      c.userMetadata ? JSON.stringify(c.userMetadata) : null,
      c.appMetadata ? JSON.stringify(c.appMetadata) : null,
      c.confirmEmail ?? false,
    ],
  );
  return rows[0];
}

/** A sign-up waiting for its link (AUTH_AUTOCONFIRM off): the token GoTrue keeps in confirmation_token. */
export async function setConfirmationToken(db: Queryable, id: string, token: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set confirmation_token = $2, confirmation_sent_at = now(), updated_at = now()
     where id = $1 returning ${USER_COLUMNS}`,
    [id, token],
  );
  return rows[0];
}

/** A change of address waiting for its link; the current address stays until then. A second change replaces it. */
export async function setEmailChange(db: Queryable, id: string, email: string, token: string): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `update auth.users set email_change = $2, email_change_token_new = $3, email_change_sent_at = now(), updated_at = now()
     where id = $1 returning ${USER_COLUMNS}`,
    [id, email, token],
  );
  return rows[0];
}

/** Confirm a sign-up by its link's token (once). */
export async function confirmSignup(db: Queryable, token: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '', updated_at = now()
     where confirmation_token = $1 and $1 <> '' and deleted_at is null`,
    [token],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Apply a pending change of address by its link's token (once). The new address is confirmed by the link itself;
 * an address taken meanwhile by another account surfaces as 23505 (the caller maps it).
 */
export async function confirmEmailChange(db: Queryable, token: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update auth.users set email = email_change, email_confirmed_at = now(), email_change = '', email_change_token_new = '',
       updated_at = now()
     where email_change_token_new = $1 and $1 <> '' and coalesce(email_change, '') <> '' and deleted_at is null`,
    [token],
  );
  return (rowCount ?? 0) > 0;
}

/** GoTrue's metadata update: keys are merged, a null value removes the key. */
export function mergeMetadata(
  current: Record<string, unknown> | null,
  updates: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** app_metadata as GoTrue puts it in tokens and user JSON: provider info first, stored keys (e.g. role) kept. */
export function appMetadataOf(user: UserRow): Record<string, unknown> {
  return { provider: "email", providers: ["email"], ...(user.raw_app_meta_data ?? {}) };
}

const iso = (d: Date | null): string | undefined => (d ? d.toISOString() : undefined);

/**
 * The user object GoTrue returns (models.User JSON). There is no auth.identities table in the local bootstrap, so
 * the single e-mail identity is synthesised from the user row.
 */
export function userJson(user: UserRow): Record<string, unknown> {
  const confirmedAt = iso(user.email_confirmed_at);
  const json: Record<string, unknown> = {
    id: user.id,
    aud: user.aud ?? "authenticated",
    role: user.role ?? "authenticated",
    email: user.email ?? "",
    email_confirmed_at: confirmedAt,
    phone: user.phone ?? "",
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: confirmedAt,
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: appMetadataOf(user),
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.email
      ? [
          {
            identity_id: user.id,
            id: user.id,
            user_id: user.id,
            identity_data: { email: user.email, email_verified: !!confirmedAt, phone_verified: false, sub: user.id },
            provider: "email",
            last_sign_in_at: iso(user.last_sign_in_at),
            created_at: iso(user.created_at),
            updated_at: iso(user.updated_at),
            email: user.email,
          },
        ]
      : [],
    new_email: user.email_change || undefined,
    email_change_sent_at: user.email_change ? iso(user.email_change_sent_at ?? null) : undefined,
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
  };
  // GoTrue omits empty optional timestamps (omitempty) rather than sending null.
  for (const k of Object.keys(json)) if (json[k] === undefined) delete json[k];
  return json;
}
