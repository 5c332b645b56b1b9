import { describe, expect, it } from "vitest";
import { MANUAL_INSTALL_LINE, provisionChromium, type ProvisionProbe } from "../helpers/provision-chromium";

/** A machine described by what exists on it and what each install command would do. */
function machine(opts: { executables?: string[]; root?: boolean; apt?: boolean; aptInstalls?: string; npxInstalls?: string; env?: Record<string, string | undefined> }) {
  const files = new Set(opts.executables ?? []);
  const ran: string[] = [];
  const logs: string[] = [];
  const probe: ProvisionProbe = {
    env: opts.env ?? {},
    isExecutable: (f) => files.has(f),
    playwrightBrowsers: () => ["/home/u/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome"],
    isRoot: () => opts.root ?? false,
    hasCommand: (c) => c === "apt-get" && (opts.apt ?? false),
    run(cmd, args) {
      ran.push([cmd, ...args].join(" "));
      if (cmd === "apt-get" && args[0] === "install" && opts.aptInstalls) files.add(opts.aptInstalls);
      if (cmd === "npx" && opts.npxInstalls) {
        files.add(opts.npxInstalls);
        return true;
      }
      if (cmd === "apt-get") return args[0] === "update" || Boolean(opts.aptInstalls);
      return false;
    },
    log: (l) => logs.push(l),
  };
  return { probe, ran, logs };
}

describe("provisionChromium", () => {
  it("uses CHROMIUM_PATH when it names an executable, installing nothing", () => {
    const m = machine({ executables: ["/opt/chrome"], env: { CHROMIUM_PATH: "/opt/chrome" } });
    expect(provisionChromium(m.probe)).toEqual({ ok: true, path: "/opt/chrome", how: "CHROMIUM_PATH" });
    expect(m.ran).toEqual([]);
  });

  it("says so when CHROMIUM_PATH points nowhere, then takes a Chromium already on the machine", () => {
    const m = machine({ executables: ["/usr/bin/chromium"], env: { CHROMIUM_PATH: "/nowhere/chrome" } });
    expect(provisionChromium(m.probe)).toMatchObject({ ok: true, path: "/usr/bin/chromium", how: "found on this machine" });
    expect(m.logs.join("\n")).toContain("CHROMIUM_PATH=/nowhere/chrome is not an executable");
    expect(m.ran).toEqual([]);
  });

  it("finds a browser Playwright installed before", () => {
    const pw = "/home/u/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome";
    expect(provisionChromium(machine({ executables: [pw] }).probe)).toMatchObject({ ok: true, path: pw });
  });

  it("installs Debian's chromium with apt-get as root, saying what it does", () => {
    const m = machine({ root: true, apt: true, aptInstalls: "/usr/bin/chromium" });
    expect(provisionChromium(m.probe)).toEqual({ ok: true, path: "/usr/bin/chromium", how: "installed with apt-get" });
    expect(m.ran).toEqual(["apt-get update -qq", "apt-get install -y -qq chromium"]);
    expect(m.logs.join("\n")).toMatch(/installing Debian's chromium with apt-get/);
  });

  it("falls back to npx playwright install when not root", () => {
    const pw = "/home/u/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome";
    const m = machine({ root: false, apt: true, npxInstalls: pw });
    expect(provisionChromium(m.probe)).toMatchObject({ ok: true, path: pw, how: "installed with npx playwright install" });
    expect(m.ran).toEqual(["npx playwright install chromium"]);
  });

  it("when every way fails, answers one line naming the command to run", () => {
    const m = machine({ root: true, apt: true });
    const r = provisionChromium(m.probe);
    expect(r).toEqual({ ok: false, message: MANUAL_INSTALL_LINE });
    expect(MANUAL_INSTALL_LINE).not.toContain("\n");
    expect(MANUAL_INSTALL_LINE).toContain("apt-get install chromium");
    expect(m.ran).toEqual(["apt-get update -qq", "apt-get install -y -qq chromium", "npx playwright install chromium"]);
  });
});
