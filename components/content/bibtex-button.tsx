"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useI18n } from "@/lib/i18n/client";

/** Copies a publication's BibTeX; when the clipboard is refused the entry is shown for manual copying. */
export function BibtexButton({ bibtex }: { bibtex: string }) {
  const { t } = useI18n();
  const P = t.content.publications;
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(bibtex);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <div>
      <Button variant="secondary" size="sm" onClick={copy}>
        {P.copyBibtex}
      </Button>
      <span role="status" className="ml-2 text-xs text-muted">
        {state === "copied" ? P.copied : state === "failed" ? P.copyFailed : ""}
      </span>
      {state === "failed" ? <pre className="mt-2 overflow-x-auto rounded bg-sunken p-2 text-xs">{bibtex}</pre> : null}
    </div>
  );
}
