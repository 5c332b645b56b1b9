import type pg from "pg";
import type { TokenService } from "./tokens";

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
}
