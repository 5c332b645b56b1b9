import type { ReactNode } from "react";
import { cx } from "./cx";

type Tone = "info" | "warn" | "danger" | "ok";

const tones: Record<Tone, string> = {
  info: "border-brand/30 bg-brand-soft text-ink",
  warn: "border-warn/30 bg-warn-soft text-ink",
  danger: "border-danger/30 bg-danger-soft text-ink",
  ok: "border-ok/30 bg-ok-soft text-ink",
};

/** An inline message; `role` is alert for failures (announced at once) and status otherwise. */
export function Notice({ tone = "info", title, children, className }: { tone?: Tone; title?: ReactNode; children?: ReactNode; className?: string }) {
  return (
    <div role={tone === "danger" ? "alert" : "status"} className={cx("rounded-card border px-4 py-3 text-sm", tones[tone], className)}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
