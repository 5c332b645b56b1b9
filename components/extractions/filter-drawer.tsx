"use client";

import * as Accordion from "@radix-ui/react-accordion";
import { Button } from "@/components/ui/button";
import { DialogRoot, SheetContent } from "@/components/ui/dialog";
import { filterKeys, type PageFilter } from "@/lib/client/filter-codec";
import { useI18n } from "@/lib/i18n/client";
import { FilterControl } from "./filter-controls";
import { drawerGroups, keyLabel } from "./registry-view";
import { ChevronDown } from "@/components/ui/chevron-down";

/**
 * The filter drawer, built from the registry: one accordion section per group (core judgment keys first, registry
 * order, operational last), one control per field. It edits a draft; "Show results" applies it to the URL.
 */
export function FilterDrawer({
  open,
  onOpenChange,
  draft,
  setDraft,
  onApply,
}: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
  draft: PageFilter;
  setDraft: (f: PageFilter) => void;
  onApply: () => void;
}) {
  const { locale, t } = useI18n();
  const groups = drawerGroups(locale, t);
  const table = filterKeys();
  const activeIn = (keys: string[]) => keys.filter((k) => k in draft).length;

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <SheetContent
        title={t.extr.filtersTitle}
        description={t.extr.filtersDescription}
        closeLabel={t.common.close}
        footer={
          <div className="flex justify-between gap-2">
            <Button variant="ghost" onClick={() => setDraft({})}>
              {t.extr.clearAll}
            </Button>
            <Button onClick={onApply} data-testid="drawer-apply">
              {t.extr.apply}
            </Button>
          </div>
        }
      >
        <Accordion.Root type="multiple" defaultValue={["core"]} className="divide-y divide-line">
          {groups.map((g) => {
            const n = activeIn(g.keys.map((k) => k.key));
            return (
              <Accordion.Item key={g.id} value={g.id} data-group={g.id}>
                <Accordion.Header>
                  <Accordion.Trigger className="group flex w-full items-center justify-between py-3 text-left font-medium">
                    <span>
                      {g.label}
                      {n ? <span className="ml-2 rounded-full bg-brand px-1.5 text-xs text-on-brand">{n}</span> : null}
                    </span>
                    <ChevronDown className="size-4 transition-transform group-data-[state=open]:rotate-180" />
                  </Accordion.Trigger>
                </Accordion.Header>
                <Accordion.Content className="space-y-4 pb-4">
                  {g.keys.map((info) => (
                    <fieldset key={info.key} data-field={info.key}>
                      <legend className="mb-1.5 text-sm font-medium">{keyLabel(info.key, locale)}</legend>
                      <FilterControl
                        info={table.get(info.key)!}
                        value={draft[info.key]}
                        onChange={(v) => {
                          const next = { ...draft };
                          if (v === undefined) delete next[info.key];
                          else next[info.key] = v;
                          setDraft(next);
                        }}
                      />
                    </fieldset>
                  ))}
                </Accordion.Content>
              </Accordion.Item>
            );
          })}
        </Accordion.Root>
      </SheetContent>
    </DialogRoot>
  );
}
