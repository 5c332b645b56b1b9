import { cookies, headers } from "next/headers";
import { en, type Messages } from "./en";
import { pl } from "./pl";
import { LOCALE_COOKIE, type Locale } from "./locale";

const dictionaries: Record<Locale, Messages> = { en, pl };

/**
 * The interface locale of this request: the cookie set by the locale switch, else the browser's first preference
 * (Polish when it asks for Polish first), else English.
 */
export async function getLocale(): Promise<Locale> {
  const fromCookie = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (fromCookie === "en" || fromCookie === "pl") return fromCookie;
  const accept = (await headers()).get("accept-language") ?? "";
  return /^\s*pl\b/i.test(accept) ? "pl" : "en";
}

export function messagesFor(locale: Locale): Messages {
  return dictionaries[locale];
}

export async function getI18n(): Promise<{ locale: Locale; t: Messages }> {
  const locale = await getLocale();
  return { locale, t: messagesFor(locale) };
}
