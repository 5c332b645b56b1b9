/**
 * Highlights arrive as HTML-escaped text with `<mark>`/`</mark>` around matched words (spec: autocomplete defaults).
 * Rather than inject HTML, split into segments and render them as React text: nothing but the mark survives.
 */
export interface MarkSegment {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x27;": "'" };

export function unescapeHtml(s: string): string {
  return s.replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (m) => ENTITIES[m] ?? m);
}

export function splitMarks(highlighted: string): MarkSegment[] {
  const out: MarkSegment[] = [];
  let marked = false;
  for (const part of highlighted.split(/(<\/?mark>)/i)) {
    if (/^<mark>$/i.test(part)) marked = true;
    else if (/^<\/mark>$/i.test(part)) marked = false;
    else if (part) out.push({ text: unescapeHtml(part), marked });
  }
  return out;
}

/** Plain text of a highlighted string (for titles and aria labels). */
export function stripMarks(highlighted: string): string {
  return splitMarks(highlighted)
    .map((s) => s.text)
    .join("");
}
