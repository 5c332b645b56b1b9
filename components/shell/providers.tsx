"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiRequestError } from "@/lib/client/api";
import { I18nProvider } from "@/lib/i18n/client";
import type { Messages } from "@/lib/i18n/en";
import type { Locale } from "@/lib/i18n/locale";
import type { SessionUser } from "@/lib/api/pages";
import { UserProvider } from "./user-context";

export function Providers({ locale, messages, user, children }: { locale: Locale; messages: Messages; user: SessionUser | null; children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // Client errors (4xx) are answers, not glitches: do not retry them.
          queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (count, err) => count < 1 && !(err instanceof ApiRequestError && err.status < 500) },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale} messages={messages}>
        <UserProvider user={user}>{children}</UserProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
