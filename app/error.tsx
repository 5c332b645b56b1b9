"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { reportBoundaryError } from "@/components/error-report";
import { useI18n } from "@/lib/i18n/client";

export default function ErrorBoundary({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useI18n();
  useEffect(() => reportBoundaryError(error), [error]);
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">{t.errors.title}</h1>
      <p className="mt-2 text-muted">{t.errors.body}</p>
      <div className="mt-6 flex justify-center gap-3">
        <Button onClick={() => retry()}>{t.common.retry}</Button>
        <Link href="/search" className={buttonClass("secondary")}>
          {t.errors.goSearch}
        </Link>
      </div>
    </div>
  );
}
