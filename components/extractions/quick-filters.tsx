"use client";

import * as Popover from "@radix-ui/react-popover";
import { useState } from "react";
import { Button, buttonClass } from "@/components/ui/button";
import type { PageFilter, PageFilterValue } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { FilterControl } from "./filter-controls";
import { quickFilterKeys, keyLabel } from "./registry-view";
import { ChevronDown } from "@/components/ui/chevron-down";

/** The quick-filter strip: the registry's quick fields as small popovers that apply when confirmed. */
export function QuickFilters({ filter, onChange }: { filter: PageFilter; onChange: (key: string, v: PageFilterValue | undefined) => void }) {
  const { locale, t } = useI18n();
  return (
    <div role="group" aria-label={t.extr.quickFilters} className="flex flex-wrap items-center gap-2">
      {quickFilterKeys().map((info) => (
        <QuickFilter key={info.key} label={keyLabel(info.key, locale)} active={info.key in filter} value={filter[info.key]} onApply={(v) => onChange(info.key, v)} applyLabel={t.search.apply} infoKey={info.key} />
      ))}
    </div>
  );
}

function QuickFilter({
  label,
  active,
  value,
  onApply,
  applyLabel,
  infoKey,
}: {
  label: string;
  active: boolean;
  value: PageFilterValue | undefined;
  onApply: (v: PageFilterValue | undefined) => void;
  applyLabel: string;
  infoKey: string;
}) {
  const [open, setOpen] = useState(false);
  const [local, setLocal] = useState<PageFilterValue | undefined>(value);
  const info = quickFilterKeys().find((k) => k.key === infoKey)!;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setLocal(value);
      }}
    >
      <Popover.Trigger className={buttonClass(active ? "primary" : "secondary", "sm", "rounded-full")} data-quick={infoKey}>
        {label}
        <ChevronDown />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="start" sideOffset={6} className="z-40 w-[min(22rem,calc(100vw-2rem))] rounded-card border border-line bg-surface p-4 shadow-pop" aria-label={label}>
          <p className="mb-2 text-sm font-medium">{label}</p>
          <FilterControl info={info} value={local} onChange={setLocal} compact />
          <div className="mt-3 flex justify-end">
            <Button
              size="sm"
              onClick={() => {
                onApply(local);
                setOpen(false);
              }}
            >
              {applyLabel}
            </Button>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
