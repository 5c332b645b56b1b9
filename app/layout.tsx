import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { Footer } from "@/components/shell/footer";
import { Header } from "@/components/shell/header";
import { Providers } from "@/components/shell/providers";
import { getSessionUser } from "@/lib/api/pages";
import { getI18n } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const { t } = await getI18n();
  return {
    title: { default: t.meta.siteName, template: `%s · ${t.meta.siteName}` },
    description: t.meta.defaultDescription,
    applicationName: t.meta.siteName,
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#1f3a5f" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [{ locale, t }, user] = await Promise.all([getI18n(), getSessionUser()]);
  return (
    <html lang={locale}>
      <body className="flex min-h-dvh flex-col antialiased">
        <a
          href="#main"
          className="sr-only z-50 rounded-control bg-brand px-3 py-2 text-on-brand focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          {t.common.skipToContent}
        </a>
        <Providers locale={locale} messages={t} user={user}>
          <Header t={t} user={user} />
          <main id="main" tabIndex={-1} className="mx-auto w-full min-w-0 max-w-6xl flex-1 px-4 py-6 focus:outline-none">
            {children}
          </main>
          <Footer t={t} />
        </Providers>
      </body>
    </html>
  );
}
