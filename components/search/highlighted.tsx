import { splitMarks } from "@/lib/client/marks";

/** Text with the engine's <mark> highlights, rendered as React text (no HTML injection). */
export function Highlighted({ html, fallback }: { html: string | null; fallback?: string | null }) {
  if (!html) return <>{fallback ?? ""}</>;
  return (
    <>
      {splitMarks(html).map((s, i) => (s.marked ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </>
  );
}
