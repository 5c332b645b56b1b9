import localFont from "next/font/local";

/**
 * Inter from npm (@fontsource-variable/inter) through next/font/local: self-hosted, no network at build time.
 * Two subsets as two families in the stack (globals.css --font-sans): Latin is preloaded; Latin Extended (the Polish
 * letters ą ę ł ń ś ź ż) loads only when such a glyph appears.
 */
export const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  style: "normal",
  display: "swap",
  variable: "--font-inter",
  preload: true,
});

export const interExt = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2",
  weight: "100 900",
  style: "normal",
  display: "swap",
  variable: "--font-inter-ext",
  preload: false,
  // The browser falls back to this face glyph by glyph; unicode-range keeps it from loading for plain Latin text.
  declarations: [{ prop: "unicode-range", value: "U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF" }],
});
