/**
 * The launcher's supervised children (server/supervise.ts): how each is started and how the launcher knows it serves.
 * `npm start` runs them all; the fault tests start the same specs (tests/api/faults-supervise.test.ts).
 */
import { spawnAppServer, spawnGateway, spawnMailCatcher, spawnWorkerIpc, waitUntilServing } from "./processes";
import type { GatewayReady } from "./gateway-cli";
import { readyMessage, type Backoff, type ChildSpec } from "../supervise";

export type ChildOutput = "inherit" | "quiet";

/** The back-off of every child, from lib/config.ts (SUPERVISE_*). */
export async function configuredBackoff(): Promise<Backoff> {
  const { config } = await import("../../lib/config");
  const c = config();
  return { initialMs: c.SUPERVISE_RESTART_INITIAL_MS, maxMs: c.SUPERVISE_RESTART_MAX_MS, stableMs: c.SUPERVISE_STABLE_MS };
}

/** The gateway on GATEWAY_PORT (the same port after every restart, so its URL in every client stays right). */
export function gatewayChild(env: NodeJS.ProcessEnv, output: ChildOutput = "inherit"): ChildSpec<GatewayReady> {
  return { name: "gateway", spawn: () => spawnGateway(env, output), ready: (c) => readyMessage<GatewayReady>(c, "gateway") };
}

/** The mail catcher on MAIL_CATCHER_PORT. */
export function mailCatcherChild(env: NodeJS.ProcessEnv, output: ChildOutput = "inherit"): ChildSpec<{ url: string }> {
  return { name: "mail catcher", spawn: () => spawnMailCatcher(env, output), ready: (c) => readyMessage<{ url: string }>(c, "mail catcher") };
}

/** The extraction worker; ready once it works the queue. */
export function workerChild(env: NodeJS.ProcessEnv, output: ChildOutput = "inherit"): ChildSpec<{ workerId: string }> {
  return { name: "worker", spawn: () => spawnWorkerIpc(env, output), ready: (c) => readyMessage<{ workerId: string }>(c, "worker") };
}

/** The app server on `port`; ready once /api/health/status answers. */
export function appChild(mode: "production" | "development", port: number, env: NodeJS.ProcessEnv, output: ChildOutput = "inherit"): ChildSpec<{ url: string }> {
  const url = `http://127.0.0.1:${port}`;
  return {
    name: "app",
    spawn: () => spawnAppServer(mode, port, env, output === "inherit" ? "inherit" : ["ignore", "ignore", "inherit"]),
    ready: async (c) => {
      await waitUntilServing(`${url}/api/health/status`, c);
      return { url };
    },
  };
}
