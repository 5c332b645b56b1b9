import type pg from "pg";
import type { TokenService } from "./tokens";
import type { AuthMailer } from "./auth/mailer";
import type { SignupLimiter } from "./auth/limits";

/** What every route of the gateway needs, built once by startGateway. */
export interface GatewayContext {
  /** Pool connected as the database owner, which may SET ROLE to anon/authenticated/service_role. */
  pool: pg.Pool;
  tokens: TokenService;
  /** `<publicUrl>/auth/v1`, the `iss` of access tokens. */
  issuer: string;
  jwtExpirySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
  /** Session lifetime limits (0 = none); see sessions.ts sessionValidity. */
  sessionTimeboxSeconds: number;
  sessionInactivityTimeoutSeconds: number;
  /** Schemas callable through /rest/v1/rpc (Accept-Profile / Content-Profile pick one; the first is the default). */
  exposedSchemas: string[];
  log: (line: string) => void;
  /** A sign-up is confirmed at once (AUTH_AUTOCONFIRM) or waits for its confirmation link. */
  autoconfirm: boolean;
  /** A token-only password change needs a session this young (seconds), else the current password. */
  passwordChangeRecentSignInSeconds: number;
  /** Sign-ups per client address (Redis through the Upstash bridge, else process memory). */
  signupLimiter: SignupLimiter;
  /** The confirmation mails (sign-up, change of address); its SMTP server is set once the mail catcher runs. */
  mailer: AuthMailer;
}
