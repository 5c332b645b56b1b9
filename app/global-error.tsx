"use client";

import { useEffect } from "react";
import "./globals.css";
import { reportBoundaryError } from "@/components/error-report";
import { buttonClass } from "@/components/ui/button";

/** Replaces the root layout when it fails, so it cannot use the layout's providers: text is bilingual inline. */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => reportBoundaryError(error), [error]);
  return (
    <html lang="en">
      <body className="bg-canvas font-sans text-ink">
        <title>Something went wrong · Judgment Search</title>
        <main role="alert" className="mx-auto max-w-lg px-4 py-16 text-center">
          <h1 className="text-2xl font-semibold">Something went wrong</h1>
          <p className="mt-2 text-muted" lang="pl">
            Coś poszło nie tak.
          </p>
          <div className="mt-6 flex justify-center gap-3">
            <button type="button" className={buttonClass("primary")} onClick={() => retry()}>
              Try again / Spróbuj ponownie
            </button>
            {/* A full reload: the app's router is what failed. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a href="/" className={buttonClass("secondary")}>
              Home
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
