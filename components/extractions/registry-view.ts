/**
 * How the extraction page presents the field registry (lib/schema): drawer groups in registry order with the core
 * judgment keys first and operational last, and labels for keys and values in the interface locale.
 */
import { filterKeys, type FilterKeyInfo } from "@/lib/client/filter-codec";
import type { Messages } from "@/lib/i18n/en";
import type { Locale } from "@/lib/i18n/locale";
import { fieldsByGroup, quickFilters } from "@/lib/schema";
import { fieldLabel, valueLabelOf } from "@/lib/schema/labels";
import { isCanonicalProvisionId } from "@/lib/schema/provision-id";
import { provisionName } from "@/lib/citations/name";
import { fmt } from "@/lib/i18n/locale";

export interface DrawerGroup {
  id: string;
  label: string;
  keys: FilterKeyInfo[];
}

const CORE_ORDER = ["jurisdiction", "decision_date", "court_name", "cites"];

export function drawerGroups(locale: Locale, t: Messages): DrawerGroup[] {
  const table = filterKeys();
  const core: DrawerGroup = {
    id: "core",
    label: t.extr.groups.core,
    keys: CORE_ORDER.map((k) => table.get(k)).filter((k): k is FilterKeyInfo => !!k),
  };
  // Only fields the structured filter accepts (registry rpcFilter); a group with none is left out.
  const rest = fieldsByGroup()
    .map(({ group, fields }) => ({
      id: group.id,
      label: group[locale],
      keys: fields.map((f) => table.get(f.name)).filter((k): k is FilterKeyInfo => !!k && k.field !== null),
    }))
    .filter((g) => g.keys.length > 0);
  return [core, ...rest];
}

/** Quick filters: jurisdiction and decision date, then the registry's quick_filter fields. */
export function quickFilterKeys(): FilterKeyInfo[] {
  const table = filterKeys();
  return [table.get("jurisdiction"), ...quickFilters().map((f) => table.get(f.name))].filter((k): k is FilterKeyInfo => !!k);
}

/** A filter key's label from the registry dictionary (lib/schema/labels); never the raw key. */
export function keyLabel(key: string, locale: Locale): string {
  return fieldLabel(key, locale);
}

export function valueLabel(key: string, value: string, locale: Locale, t: Messages): string {
  if (key === "jurisdiction") return t.common.jurisdiction[value as "PL" | "UK"] ?? value;
  // cites: a provision by its name ("art. 279 § 1 k.k."), a cited judgment by its id.
  if (key === "cites") return isCanonicalProvisionId(value) ? provisionName(value) : fmt(t.citations.citedJudgment, { id: value.slice(0, 8) });
  const field = filterKeys().get(key)?.field;
  if (field?.type === "boolean" && (value === "true" || value === "false")) return value === "true" ? t.common.yes : t.common.no;
  return valueLabelOf(key, value, locale);
}
