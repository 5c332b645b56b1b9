import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";

/** One request over a fresh connection: the echoed text, "closed" or "silent" (nothing within 300 ms). */
function ask(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => (s.destroy(), resolve("silent")), 300);
    s.on("connect", () => s.write(text));
    s.on("data", (d) => (clearTimeout(timer), s.destroy(), resolve(d.toString())));
    s.on("close", () => (clearTimeout(timer), resolve("closed")));
    s.on("error", () => undefined);
  });
}

describe("fault proxy (the test helper that breaks links on purpose)", () => {
  let echo: net.Server;
  let proxy: FaultProxy;
  beforeAll(async () => {
    echo = net.createServer((s) => s.on("data", (d) => s.write(d)));
    await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
    proxy = await startFaultProxy({ host: "127.0.0.1", port: (echo.address() as net.AddressInfo).port });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => echo.close(() => r()));
  });

  it("forwards, refuses, hangs, and forwards again", async () => {
    expect(await ask(proxy.port, "a")).toBe("a");
    proxy.set("refuse");
    expect(await ask(proxy.port, "b")).toBe("closed");
    proxy.set("hang");
    expect(await ask(proxy.port, "c")).toBe("silent");
    proxy.set("pass");
    expect(await ask(proxy.port, "d")).toBe("d");
  });
});
