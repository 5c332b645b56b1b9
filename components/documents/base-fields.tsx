import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import type { Messages } from "@/lib/i18n/en";
import type { Locale } from "@/lib/i18n/locale";
import { formatDate } from "@/lib/i18n/locale";
import { fieldsByGroup, type FieldDef } from "@/lib/schema";

function display(field: FieldDef, value: unknown, locale: Locale, t: Messages): string {
  if (value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)) return t.common.none;
  const label = (v: unknown) => {
    const opt = field.enumValues?.find((o) => o.value === v);
    return opt ? opt[locale] : String(v);
  };
  if (Array.isArray(value)) return value.map(label).join(", ");
  if (typeof value === "boolean") return value ? t.common.yes : t.common.no;
  if ((field.type === "date" || field.type === "timestamptz") && typeof value === "string") return formatDate(locale, value);
  return label(value);
}

/** The extracted base fields by group (registry order); keys that satisfied the reader's filter are highlighted. */
export function BaseFields({ base, highlighted, locale, t }: { base: Record<string, unknown>; highlighted: Set<string>; locale: Locale; t: Messages }) {
  const anyHighlighted = [...highlighted].some((k) => k.startsWith("base_"));
  return (
    <section id="base-fields" aria-labelledby="base-fields-h" className="scroll-mt-28">
      <h2 id="base-fields-h" className="text-lg font-semibold">
        {t.doc.baseFields}
      </h2>
      <p className="mt-1 text-sm text-muted">{t.doc.baseFieldsNote}</p>
      {anyHighlighted ? (
        <p className="mt-2 inline-flex items-center gap-2 text-sm">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm border border-match-line bg-match" />
          {t.doc.matchedLegend}
        </p>
      ) : null}
      <div className="mt-4 space-y-6">
        {fieldsByGroup().map(({ group, fields }) => (
          <div key={group.id}>
            <h3 className="mb-2 text-sm font-semibold tracking-wide text-muted uppercase">{group[locale]}</h3>
            <dl className="grid gap-x-4 sm:grid-cols-[minmax(10rem,16rem)_1fr]">
              {fields.map((f) => {
                const hit = highlighted.has(f.column);
                return (
                  <div
                    key={f.column}
                    data-key={f.column}
                    data-matched={hit ? "true" : undefined}
                    className={cx(
                      "col-span-full grid grid-cols-subgrid border-b border-line py-1.5 text-sm",
                      hit && "rounded-control border-l-4 border-l-match-line bg-match px-2",
                    )}
                  >
                    <dt className="text-muted">{f.label[locale]}</dt>
                    <dd className="flex flex-wrap items-center gap-2 break-words">
                      {display(f, base[f.column], locale, t)}
                      {hit ? <Badge tone="warn">{t.doc.matchedFilter}</Badge> : null}
                    </dd>
                  </div>
                );
              })}
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}
