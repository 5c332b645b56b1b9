"use client";

import { Input, Label } from "@/components/ui/field";
import { Badge } from "@/components/ui/badge";
import { filledByName } from "@/lib/extraction/fillability";
import { FIELD_RULE_KINDS, RULE_TYPES, type FieldRule, type FieldRuleKind } from "@/lib/schema/field-rules";
import type { SchemaFieldType } from "@/lib/schema/requests/schemas";
import { useI18n } from "@/lib/i18n/client";

/** A field's rule as the editor holds it: every kind's inputs kept, so switching kinds loses nothing typed. */
export interface RuleDraft {
  kind: FieldRuleKind | "none";
  pattern: string;
  caseSensitive: boolean;
  keywords: string;
  cue: string;
}

export const emptyRule = (): RuleDraft => ({ kind: "none", pattern: "", caseSensitive: false, keywords: "", cue: "" });

export function ruleDraft(rule: FieldRule | undefined): RuleDraft {
  const d = emptyRule();
  if (!rule) return d;
  switch (rule.kind) {
    case "regex":
      return { ...d, kind: "regex", pattern: rule.pattern, caseSensitive: rule.case_sensitive };
    case "keywords":
      return { ...d, kind: "keywords", keywords: rule.keywords.join(", ") };
    case "date":
      return { ...d, kind: "date", cue: rule.cue ?? "" };
    case "number":
      return { ...d, kind: "number", cue: rule.cue };
  }
}

/**
 * The rule sent with the field (validated with the API's own zod schema before it is sent), or nothing; a kind the
 * field's type no longer takes (the type changed after) is dropped, as the select already shows.
 */
export function ruleBody(d: RuleDraft, type: SchemaFieldType): { rule?: FieldRule } {
  if (d.kind !== "none" && !RULE_TYPES[d.kind].includes(type)) return {};
  switch (d.kind) {
    case "none":
      return {};
    case "regex":
      return { rule: { kind: "regex", pattern: d.pattern, case_sensitive: d.caseSensitive } };
    case "keywords":
      return { rule: { kind: "keywords", keywords: d.keywords.split(",").map((k) => k.trim()).filter(Boolean) } };
    case "date":
      return { rule: { kind: "date", ...(d.cue.trim() ? { cue: d.cue } : {}) } };
    case "number":
      return { rule: { kind: "number", cue: d.cue } };
  }
}

/**
 * How the rules extractor (no model) fills this field: a rule of its own, or none, in which case a badge says whether
 * rules can still fill it (a name rules-v1 reads) or it needs a model.
 */
export function FieldRuleEditor(props: { id: number; name: string; type: SchemaFieldType; draft: RuleDraft; onChange: (d: RuleDraft) => void }) {
  const { t } = useI18n();
  const { draft: d, id } = props;
  const kinds = FIELD_RULE_KINDS.filter((k) => RULE_TYPES[k].includes(props.type));
  const fillable = d.kind !== "none" || filledByName({ name: props.name.trim(), type: props.type });
  const set = (p: Partial<RuleDraft>) => props.onChange({ ...d, ...p });
  return (
    <div className="space-y-2 md:col-span-4" data-testid="field-rule">
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <Label htmlFor={`f-rule-${id}`}>{t.extraction.ruleLabel}</Label>
          <select
            id={`f-rule-${id}`}
            className="rounded-card border border-line-strong bg-surface px-2 py-2"
            value={kinds.includes(d.kind as FieldRuleKind) ? d.kind : "none"}
            onChange={(e) => set({ kind: e.target.value as RuleDraft["kind"] })}
          >
            <option value="none">{t.extraction.rule_none}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {t.extraction[`rule_${k}`]}
              </option>
            ))}
          </select>
        </div>
        <Badge tone={fillable ? "ok" : "warn"}>{fillable ? t.extraction.fillRules : t.extraction.fillModel}</Badge>
      </div>
      {d.kind === "regex" ? (
        <div className="grid gap-2 md:grid-cols-[1fr_auto]">
          <div>
            <Label htmlFor={`f-pattern-${id}`}>{t.extraction.rulePattern}</Label>
            <Input id={`f-pattern-${id}`} className="font-mono" maxLength={200} value={d.pattern} onChange={(e) => set({ pattern: e.target.value })} />
          </div>
          <label className="flex items-end gap-2 pb-2 text-sm">
            <input type="checkbox" checked={d.caseSensitive} onChange={(e) => set({ caseSensitive: e.target.checked })} />
            {t.extraction.ruleCaseSensitive}
          </label>
        </div>
      ) : null}
      {d.kind === "keywords" ? (
        <div>
          <Label htmlFor={`f-keywords-${id}`}>{t.extraction.ruleKeywords}</Label>
          <Input id={`f-keywords-${id}`} value={d.keywords} onChange={(e) => set({ keywords: e.target.value })} />
        </div>
      ) : null}
      {d.kind === "date" || d.kind === "number" ? (
        <div>
          <Label htmlFor={`f-cue-${id}`}>{d.kind === "date" ? t.extraction.ruleCueOptional : t.extraction.ruleCue}</Label>
          <Input id={`f-cue-${id}`} maxLength={100} value={d.cue} onChange={(e) => set({ cue: e.target.value })} />
        </div>
      ) : null}
    </div>
  );
}
