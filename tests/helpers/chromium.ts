/**
 * How every browser run here launches Debian's Chromium (never a downloaded browser). Without the background-
 * networking flags Chromium keeps dialling hosts this closed network refuses.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
