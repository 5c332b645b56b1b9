"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { fetchTypeahead } from "@/lib/client/search-api";
import { useI18n } from "@/lib/i18n/client";
import { Highlighted } from "./highlighted";

type Option = { kind: "suggestion"; text: string } | { kind: "hit"; id: string; titleHtml: string | null; title: string; caseNumber: string | null };

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * The query box with typeahead (ARIA 1.2 combobox): phrase suggestions complete the query, autocomplete hits
 * (with <mark> highlights) open the judgment. Arrow keys move, Enter picks, Escape closes.
 */
export function SearchBox({ value, onChange, onPick }: { value: string; onChange: (v: string) => void; onPick: (v: string) => void }) {
  const { t } = useI18n();
  const router = useRouter();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const debounced = useDebounced(value.trim(), 150);

  const ta = useQuery({
    queryKey: ["typeahead", debounced],
    queryFn: ({ signal }) => fetchTypeahead(debounced, signal),
    enabled: open && debounced.length >= 2,
    staleTime: 60_000,
  });

  const options: Option[] = [
    ...(ta.data?.suggestions ?? []).map((text) => ({ kind: "suggestion" as const, text })),
    ...(ta.data?.hits ?? []).map((h) => ({ kind: "hit" as const, id: h.id, titleHtml: h.titleHtml, title: h.title, caseNumber: h.caseNumber })),
  ];
  const expanded = open && debounced.length >= 2 && options.length > 0;

  function pick(o: Option) {
    setOpen(false);
    setActive(-1);
    if (o.kind === "suggestion") {
      onChange(o.text);
      onPick(o.text);
    } else {
      router.push(`/documents/${encodeURIComponent(o.id)}`);
    }
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (options.length ? (a + 1) % options.length : -1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (options.length ? (a <= 0 ? options.length - 1 : a - 1) : -1));
    } else if (e.key === "Escape") {
      setOpen(false);
      setActive(-1);
    } else if (e.key === "Enter" && expanded && active >= 0 && options[active]) {
      e.preventDefault();
      pick(options[active]);
    }
  }

  return (
    <div className="relative min-w-0 flex-1">
      <label htmlFor="search-q" className="sr-only">
        {t.search.queryLabel}
      </label>
      <input
        ref={inputRef}
        id="search-q"
        name="q"
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        maxLength={500}
        placeholder={t.search.placeholder}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 120)}
        onKeyDown={onKeyDown}
        className={cx(controlClass, "h-11 text-base")}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t.search.suggestions}
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-20 mt-1 max-h-80 overflow-y-auto rounded-card border border-line bg-surface py-1 shadow-pop"
      >
        {options.map((o, i) => (
          <li
            key={o.kind === "hit" ? `h-${o.id}` : `s-${o.text}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(o)}
            className={cx("cursor-pointer px-3 py-2 text-sm", i === active ? "bg-brand-soft" : "hover:bg-sunken")}
          >
            {o.kind === "suggestion" ? (
              <span className="flex items-center gap-2">
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-subtle" fill="none" stroke="currentColor" strokeWidth="1.8">
                  <circle cx="9" cy="9" r="5.5" />
                  <path d="m13 13 4 4" strokeLinecap="round" />
                </svg>
                {o.text}
              </span>
            ) : (
              <span className="block">
                <span className="line-clamp-1 font-medium">
                  <Highlighted html={o.titleHtml} fallback={o.title} />
                </span>
                {o.caseNumber ? <span className="text-xs text-muted">{o.caseNumber}</span> : null}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
