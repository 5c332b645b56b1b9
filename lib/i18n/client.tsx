"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { Messages } from "./en";
import { LOCALE_COOKIE, type Locale } from "./locale";

interface I18n {
  locale: Locale;
  t: Messages;
}

const I18nContext = createContext<I18n | null>(null);

/** Receives the dictionary from the server layout, so client islands do not bundle both languages. */
export function I18nProvider({ locale, messages, children }: { locale: Locale; messages: Messages; children: ReactNode }) {
  return <I18nContext.Provider value={{ locale, t: messages }}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error("useI18n outside I18nProvider");
  return ctx;
}

/** Remember the interface locale for a year; the server reads it on the next render. */
export function writeLocaleCookie(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=31536000; samesite=lax`;
}
