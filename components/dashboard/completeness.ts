import { BASE_FIELDS, GROUPS, type GroupId } from "@/lib/schema";
import type { Locale } from "@/lib/i18n/locale";

export interface GroupCoverage {
  id: GroupId;
  label: string;
  /** Mean coverage ratio (0..1) of the group's fields that have one; null when none has. */
  coverage: number | null;
  fields: number;
}

/** Per field group: the mean of its fields' coverage ratios (the registry says which field is in which group). */
export function coverageByGroup(byField: Record<string, number | null>, locale: Locale): GroupCoverage[] {
  return GROUPS.filter((g) => g.id !== "operational").flatMap((g) => {
    const ratios = BASE_FIELDS.filter((f) => f.group === g.id)
      .map((f) => byField[f.name])
      .filter((r): r is number => typeof r === "number");
    const fields = BASE_FIELDS.filter((f) => f.group === g.id).length;
    if (fields === 0) return [];
    return [{ id: g.id, label: g[locale], coverage: ratios.length ? ratios.reduce((a, b) => a + b, 0) / ratios.length : null, fields }];
  });
}
