"use client";

import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { useI18n } from "@/lib/i18n/client";
import { fmt, plural } from "@/lib/i18n/locale";
import { citationText, permalinkPath } from "./citation";
import { findTerms, markMatches } from "./find-in-text";
import type { Judgment } from "./judgment";

const ACTIVE = "data-find-active";

/** Typing in a field: n / p are letters there, not commands. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/**
 * Find in the judgment's full text (`textRef`): every match of the box's words marked (folded, diacritics-insensitive),
 * "3 of 17" with previous / next (buttons, Enter / Shift+Enter in the box, n / p elsewhere on the page). Opened from a
 * search result (`?q=`), the box starts with the query and the page jumps to the first match. `ready` changes when the
 * text is (re)rendered, so the marks are laid again.
 */
export function FindInText({ textRef, initialQuery, ready }: { textRef: RefObject<HTMLElement | null>; initialQuery: string; ready: unknown }) {
  const { locale, t } = useI18n();
  const D = t.doc;
  const [query, setQuery] = useState(initialQuery);
  const [applied, setApplied] = useState(initialQuery);
  const [marks, setMarks] = useState<HTMLElement[]>([]);
  const [index, setIndex] = useState(0);
  const jumpOnMark = useRef(initialQuery.trim() !== "");

  // Typing settles before the text is marked again (a long judgment is tens of thousands of words).
  useEffect(() => {
    const timer = setTimeout(() => setApplied(query), 200);
    return () => clearTimeout(timer);
  }, [query]);

  const terms = useMemo(() => findTerms(applied), [applied]);

  useEffect(() => {
    const root = textRef.current;
    if (!root) return;
    const found = markMatches(root, terms);
    // The first match is current; the page jumps to it once, when opened from a result.
    if (found.length > 0) {
      found[0].setAttribute(ACTIVE, "");
      if (jumpOnMark.current) found[0].scrollIntoView({ block: "center" });
      jumpOnMark.current = false;
    }
    setMarks(found);
    setIndex(0);
  }, [terms, ready, textRef]);

  const go = useCallback(
    (to: number) => {
      if (marks.length === 0) return;
      const next = ((to % marks.length) + marks.length) % marks.length;
      marks.forEach((m) => m.removeAttribute(ACTIVE));
      marks[next].setAttribute(ACTIVE, "");
      marks[next].scrollIntoView({ block: "center" });
      setIndex(next);
    },
    [marks],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === "n") go(index + 1);
      else if (e.key === "p") go(index - 1);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [go, index]);

  const status = terms.length === 0 ? "" : marks.length === 0 ? D.findNone : fmt(D.findPosition, { current: index + 1, total: marks.length });
  return (
    <search aria-label={D.findLabel} className="flex flex-wrap items-center gap-2" data-testid="find-in-text">
      <label htmlFor="find-in-text" className="sr-only">
        {D.findLabel}
      </label>
      <Input
        id="find-in-text"
        type="search"
        value={query}
        placeholder={D.findPlaceholder}
        className="w-56 max-w-full"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          e.preventDefault();
          // Enter right after typing: mark first, then the first match is current.
          if (query !== applied) setApplied(query);
          else go(index + (e.shiftKey ? -1 : 1));
        }}
      />
      <Button variant="secondary" size="sm" aria-label={D.findPrev} title={D.findPrev} disabled={marks.length === 0} onClick={() => go(index - 1)}>
        ↑
      </Button>
      <Button variant="secondary" size="sm" aria-label={D.findNext} title={D.findNext} disabled={marks.length === 0} onClick={() => go(index + 1)}>
        ↓
      </Button>
      <span role="status" className="text-sm text-muted">
        <span data-testid="find-status">{status}</span>
        {marks.length > 0 ? <span className="sr-only"> ({plural(locale, marks.length, D.findMatches)})</span> : null}
      </span>
    </search>
  );
}

/** Copy the citation, the permalink by citation, and the downloads (HTML, plain text). */
export function CitationTools({ judgment }: { judgment: Judgment }) {
  const { t } = useI18n();
  const D = t.doc;
  const [copied, setCopied] = useState(false);
  const citation = citationText(judgment);
  const base = `/api/documents/${encodeURIComponent(judgment.id)}/download`;
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={D.tools}>
      <Button
        variant="secondary"
        size="sm"
        data-testid="copy-citation"
        data-citation={citation}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(citation);
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          } catch {
            setCopied(false);
          }
        }}
      >
        {D.copyCitation}
      </Button>
      <span role="status" className="text-sm text-muted">
        {copied ? D.citationCopied : ""}
      </span>
      <a href={permalinkPath(judgment)} className={buttonClass("ghost", "sm")} data-testid="permalink">
        {D.permalink}
      </a>
      <a href={`${base}?format=html`} download className={buttonClass("ghost", "sm")}>
        {D.downloadHtml}
      </a>
      <a href={`${base}?format=txt`} download className={buttonClass("ghost", "sm")}>
        {D.downloadTxt}
      </a>
    </div>
  );
}
