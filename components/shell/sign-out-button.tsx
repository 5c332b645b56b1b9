"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useI18n } from "@/lib/i18n/client";

export function SignOutButton() {
  const { t } = useI18n();
  const router = useRouter();
  const [busy, setBusy] = useState(false);

  async function signOut() {
    setBusy(true);
    try {
      // Every write is JSON (the CSRF rule in withRoute answers 415 otherwise).
      await fetch("/api/auth/sign-out", { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" } });
    } finally {
      // The header is server-rendered from the session: a refresh shows the signed-out state.
      router.push("/");
      router.refresh();
      setBusy(false);
    }
  }

  return (
    <Button variant="ghost" size="sm" onClick={signOut} disabled={busy} data-testid="sign-out">
      {t.header.signOut}
    </Button>
  );
}
