import type { ReactNode } from "react";
import Link from "next/link";
import { forbidden } from "next/navigation";
import type { SessionUser } from "@/lib/api/pages";

/**
 * What a content admin page shows: its children for admins, HTTP 403 with the 403 page (app/forbidden.tsx) for
 * anyone else signed in (anonymous visitors never get here: the middleware sends them to sign in). The API refuses
 * them too, whatever the page shows.
 */
export function AdminGate({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  // app/admin/layout.tsx refuses first; this keeps a content page closed should it ever move out of that layout.
  if (user?.role !== "admin") forbidden();
  return <>{children}</>;
}

/** The links between the content admin pages (the admin panel's own navigation links here too). */
export function ContentAdminNav({ label, items, current }: { label: string; items: { href: string; text: string }[]; current: string }) {
  return (
    <nav aria-label={label} className="mb-6 flex flex-wrap gap-4 border-b border-line pb-2 text-sm">
      {items.map((i) => (
        <Link key={i.href} href={i.href} aria-current={i.href === current ? "page" : undefined} className={i.href === current ? "font-semibold text-ink" : "text-brand hover:underline"}>
          {i.text}
        </Link>
      ))}
    </nav>
  );
}
