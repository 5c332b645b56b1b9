import localFont from "next/font/local";

/**
 * Inter from npm (@fontsource-variable/inter) through next/font/local: self-hosted, no network at build time.
 * Two subsets as two families in the stack (globals.css --font-sans): Latin, and Latin Extended (the Polish letters
 * ą ę ł ń ś ź ż). Both are preloaded (48 + 85 KB, cached for good): nearly every results page shows Polish titles.
 *
 * display "optional", not "swap" (issue 20, layout shift): with swap the text painted in the fallback face is redrawn
 * in Inter when it arrives, and lines rewrap; on a Linux Chromium without Arial the metric-adjusted fallback next/font
 * generates does not apply either, so the whole page moved. A preloaded same-origin font is there within the short
 * block period on practically every load; on the rare one where it is not, that view keeps the fallback face and the
 * next one uses Inter from the cache.
 */
export const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  style: "normal",
  display: "optional",
  variable: "--font-inter",
  preload: true,
});

export const interExt = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2",
  weight: "100 900",
  style: "normal",
  display: "optional",
  variable: "--font-inter-ext",
  preload: true,
  // The browser falls back to this face glyph by glyph; unicode-range keeps it from loading for plain Latin text.
  declarations: [{ prop: "unicode-range", value: "U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF" }],
});
