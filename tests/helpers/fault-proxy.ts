/**
 * A TCP proxy a fault test puts between two real parts (app → gateway, gateway → Postgres, app → Redis bridge) to
 * break the link on purpose: "pass" forwards, "refuse" closes every connection at once (the part is down), "hang"
 * accepts and never answers (the part is stuck). Switching mode also cuts the connections already open, so pooled
 * clients meet the fault on their next call.
 */
import net from "node:net";

export type FaultMode = "pass" | "refuse" | "hang";

export interface FaultProxy {
  /** host:port to give the client instead of the target's. */
  readonly port: number;
  readonly url: (scheme: string, pathAndQuery?: string) => string;
  readonly mode: FaultMode;
  set(mode: FaultMode): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const open = new Set<net.Socket>();
  let mode: FaultMode = "pass";
  const server = net.createServer((client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    if (mode === "refuse") return client.destroy();
    if (mode === "hang") return; // held open, never forwarded
    const upstream = net.connect(target.port, target.host);
    open.add(upstream);
    upstream.on("close", () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: (scheme, rest = "") => `${scheme}://127.0.0.1:${port}${rest}`,
    get mode() {
      return mode;
    },
    set(m: FaultMode) {
      mode = m;
      for (const s of open) s.destroy();
      open.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** host and port of a URL such as postgres://u@127.0.0.1:5432/db or http://127.0.0.1:54321. */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

/** The same URL with its host:port replaced by the proxy's. */
export function viaProxy(url: string, proxy: FaultProxy): string {
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(proxy.port);
  return u.toString().replace(/\/$/, url.endsWith("/") ? "/" : "");
}
