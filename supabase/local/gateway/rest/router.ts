import type { IncomingMessage, ServerResponse } from "node:http";
import { requireApiKey } from "../api-key";
import type { GatewayContext } from "../context";
import { connectionFailure, PgrstError, sendPgrstError } from "./errors";
import { handleRpc } from "./rpc";

/**
 * PostgREST-compatible /rest/v1, RPC only. `path` is the part after /rest/v1. Table endpoints are not emulated: the
 * app reaches data through functions, so a table URL gets PostgREST's "table not found" 404 with a hint saying why.
 */
export async function handleRest(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  url: URL,
): Promise<void> {
  const apiKey = await requireApiKey(req, res, ctx.tokens);
  if (!apiKey) return;
  try {
    const m = /^\/rpc\/([^/]+)\/?$/.exec(path);
    if (m) {
      await handleRpc(ctx, req, res, decodeURIComponent(m[1]), url, apiKey);
      return;
    }
    const table = path.replace(/^\/+|\/+$/g, "") || "(root)";
    throw new PgrstError(
      404,
      "PGRST205",
      `Could not find the table '${ctx.exposedSchemas[0]}.${table}' in the schema cache`,
      null,
      "The local gateway serves /rest/v1/rpc/<function> only; table endpoints are not emulated",
    );
  } catch (e) {
    if (e instanceof PgrstError) {
      sendPgrstError(res, e);
      return;
    }
    ctx.log(`rest ${req.method} ${path} failed: ${(e as Error).message}`);
    // E.g. the function lookup found no database or no free connection: PostgREST's answer, not an internal error.
    const unavailable = connectionFailure(e);
    if (unavailable) {
      sendPgrstError(res, unavailable);
      return;
    }
    sendPgrstError(res, new PgrstError(500, "PGRSTX00", "Internal gateway error (details in the gateway log)"));
  }
}
