"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Input, Label, Textarea } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { checkWith, requestErrorText } from "@/lib/client/validation";
import {
  compareVersions,
  createSchema,
  deleteSchema,
  getSchema,
  listSchemas,
  listVersions,
  rollbackSchema,
  updateSchema,
  type ExtractionSchema,
  type SchemaComparison,
  type SchemaField,
} from "@/lib/client/schemas-api";
import { useI18n } from "@/lib/i18n/client";
import { fieldLabel } from "@/lib/schema/labels";
import { RunExtractionButton } from "./run-extraction";
import { emptyRule, FieldRuleEditor, ruleBody, ruleDraft, type RuleDraft } from "./field-rule-editor";
import { fmt, formatDate } from "@/lib/i18n/locale";
import type { FieldLabels } from "@/lib/i18n/validation";
import { createSchemaRequest, SCHEMA_FIELD_TYPES, type SchemaFieldType } from "@/lib/schema/requests/schemas";

/** One editable row: enum values are typed as comma-separated text and split on save. */
interface Row {
  key: number;
  name: string;
  type: SchemaFieldType;
  description: string;
  enumText: string;
  required: boolean;
  rule: RuleDraft;
}

let rowKey = 0;
const toRow = (f: SchemaField): Row => ({
  key: ++rowKey,
  name: f.name,
  type: f.type,
  description: f.description,
  enumText: (f.enum_values ?? []).join(", "),
  required: f.required,
  rule: ruleDraft(f.rule),
});
const emptyRow = (): Row => ({ key: ++rowKey, name: "", type: "string", description: "", enumText: "", required: false, rule: emptyRule() });
const isEnum = (t: SchemaFieldType) => t === "enum" || t === "enum[]";

function draftBody(name: string, description: string, rows: Row[]) {
  return {
    name,
    description: description.trim() ? description : null,
    fields: rows.map((r) => ({
      name: r.name.trim(),
      type: r.type,
      description: r.description,
      required: r.required,
      ...(isEnum(r.type) ? { enum_values: r.enumText.split(",").map((v) => v.trim()).filter(Boolean) } : {}),
      ...ruleBody(r.rule, r.type),
    })),
  };
}

/** /schemas: the caller's schemas, a field editor, and the version history with a diff and rollback. */
export function SchemasPage() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ["schemas"], queryFn: listSchemas });
  const [selected, setSelected] = useState<string | "new" | null>(null);
  // Kept here: the form remounts on a new version (its key), so its own state would lose the notice.
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const select = (id: string | "new" | null) => {
    setSavedVersion(null);
    setSelected(id);
  };

  return (
    <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
      <nav aria-label={t.extraction.yourSchemas} className="space-y-2">
        <Button onClick={() => select("new")} className="w-full">
          {t.extraction.newSchema}
        </Button>
        {list.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.isError ? (
          <Notice tone="danger">{fmt(t.extraction.loadError, { message: errorMessage(list.error, t.common.unknownError) })}</Notice>
        ) : (
          <ul className="space-y-1">
            {list.data.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  aria-current={selected === s.id ? "true" : undefined}
                  onClick={() => select(s.id)}
                  className="w-full rounded-card px-3 py-2 text-left hover:bg-sunken aria-[current=true]:bg-sunken aria-[current=true]:font-semibold"
                >
                  <span className="block break-words">{s.id === "base" ? t.extraction.baseSchema : s.name}</span>
                  <span className="text-xs text-muted">{fmt(t.extraction.version, { n: s.version })}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {list.data?.every((s) => s.id === "base") ? (
          <p className="rounded-card border border-dashed border-line-strong p-4 text-sm text-muted">{t.extraction.noSchemas}</p>
        ) : null}
      </nav>
      <section aria-live="polite" className="space-y-4">
        {savedVersion ? <Notice tone="ok">{fmt(t.extraction.saved, { n: savedVersion })}</Notice> : null}
        {selected === "new" ? (
          <SchemaForm
            key="new"
            schema={null}
            onSaved={(s) => {
              void qc.invalidateQueries({ queryKey: ["schemas"] });
              setSelected(s.id);
              setSavedVersion(s.version);
            }}
          />
        ) : selected === "base" ? (
          <BaseSchemaView />
        ) : selected ? (
          <LoadedSchema
            id={selected}
            onSaved={(s) => setSavedVersion(s.version)}
            onDeleted={() => {
              select(null);
              void qc.invalidateQueries({ queryKey: ["schemas"] });
            }}
          />
        ) : null}
      </section>
    </div>
  );
}

/** The built-in base schema: its fields, read-only, and a run over a collection. */
function BaseSchemaView() {
  const { locale, t } = useI18n();
  const schema = useQuery({ queryKey: ["schema", "base"], queryFn: () => getSchema("base") });
  if (schema.isPending) return <Skeleton className="h-64 w-full" />;
  if (schema.isError) return <Notice tone="danger">{errorMessage(schema.error, t.common.unknownError)}</Notice>;
  return (
    <Card className="space-y-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{t.extraction.baseSchema}</h2>
        <RunExtractionButton schemaId="base" />
      </div>
      <p className="text-sm text-muted">{t.extraction.baseReadOnly}</p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">{t.extraction.fields}</caption>
          <thead>
            <tr className="text-left">
              <th scope="col" className="py-1 pr-3">{t.extraction.fieldName}</th>
              <th scope="col" className="py-1 pr-3">{t.extraction.fieldType}</th>
              <th scope="col" className="py-1">{t.extraction.fieldDescription}</th>
            </tr>
          </thead>
          <tbody>
            {schema.data.fields.map((f) => (
              <tr key={f.name} className="border-t border-line align-top">
                <td className="py-1 pr-3 break-words" title={f.name}>
                  {fieldLabel(f.name, locale)}
                </td>
                <td className="py-1 pr-3">{f.type}</td>
                <td className="py-1">{f.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function LoadedSchema({ id, onSaved, onDeleted }: { id: string; onSaved: (s: ExtractionSchema) => void; onDeleted: () => void }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const schema = useQuery({ queryKey: ["schema", id], queryFn: () => getSchema(id) });
  if (schema.isPending) return <Skeleton className="h-64 w-full" />;
  if (schema.isError) return <Notice tone="danger">{errorMessage(schema.error, t.common.unknownError)}</Notice>;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["schemas"] });
    void qc.invalidateQueries({ queryKey: ["schema", id] });
    void qc.invalidateQueries({ queryKey: ["schema-versions", id] });
  };
  return (
    <div className="space-y-8">
      <SchemaForm
        key={`${id}:${schema.data.version}`}
        schema={schema.data}
        onSaved={(s) => {
          onSaved(s);
          refresh();
        }}
        onDeleted={onDeleted}
      />
      <VersionHistory schema={schema.data} onRolledBack={refresh} />
    </div>
  );
}

/** The editor's labels by request path, so a problem reads "Field 2 – Name: …", never "fields.1.name: …". */
function schemaLabels(L: ReturnType<typeof useI18n>["t"]["extraction"]["fieldLabels"]): FieldLabels {
  return {
    name: L.name,
    description: L.description,
    note: L.note,
    fields: L.fields,
    "fields.*": L.field,
    "fields.*.name": L.fieldName,
    "fields.*.type": L.fieldType,
    "fields.*.description": L.fieldDescription,
    "fields.*.enum_values": L.enumValues,
  };
}

function SchemaForm({ schema, onSaved, onDeleted }: { schema: ExtractionSchema | null; onSaved: (s: ExtractionSchema) => void; onDeleted?: () => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const labels = schemaLabels(t.extraction.fieldLabels);
  const [name, setName] = useState(schema?.name ?? "");
  const [description, setDescription] = useState(schema?.description ?? "");
  const [rows, setRows] = useState<Row[]>(() => (schema ? schema.fields.map(toRow) : [emptyRow()]));
  const [problems, setProblems] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof draftBody>) => (schema ? updateSchema(schema.id, body) : createSchema(body)),
    onSuccess: (s) => onSaved(s),
  });
  const remove = useMutation({ mutationFn: () => deleteSchema(schema!.id), onSuccess: () => onDeleted?.() });

  const patch = (key: number, p: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...p } : r)));
  const move = (i: number, d: -1 | 1) =>
    setRows((rs) => {
      const next = [...rs];
      [next[i], next[i + d]] = [next[i + d], next[i]];
      return next;
    });

  return (
    <Card className="space-y-4 p-4">
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          const body = draftBody(name, description, rows);
          // The same zod schema as the API: nothing invalid is sent.
          const checked = checkWith(createSchemaRequest(), body, i18n, labels);
          if (!checked.ok) {
            setProblems([...checked.errors.values()]);
            return;
          }
          setProblems([]);
          save.mutate(body);
        }}
      >
        <div>
          <Label htmlFor="schema-name">{t.extraction.name}</Label>
          <Input id="schema-name" maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="schema-description">{t.extraction.description}</Label>
          <Textarea id="schema-description" maxLength={2000} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <fieldset className="space-y-3">
          <legend className="font-semibold">{t.extraction.fields}</legend>
          {rows.map((r, i) => {
            const label = r.name || `#${i + 1}`;
            return (
              <div key={r.key} className="grid gap-2 rounded-card border border-line p-3 md:grid-cols-[1fr_9rem_1fr_auto]" data-testid="schema-field">
                <div>
                  <Label htmlFor={`f-name-${r.key}`}>{t.extraction.fieldName}</Label>
                  <Input id={`f-name-${r.key}`} value={r.name} onChange={(e) => patch(r.key, { name: e.target.value })} />
                </div>
                <div>
                  <Label htmlFor={`f-type-${r.key}`}>{t.extraction.fieldType}</Label>
                  <select
                    id={`f-type-${r.key}`}
                    className="w-full rounded-card border border-line-strong bg-surface px-2 py-2"
                    value={r.type}
                    onChange={(e) => patch(r.key, { type: e.target.value as SchemaFieldType })}
                  >
                    {SCHEMA_FIELD_TYPES.map((ty) => (
                      <option key={ty} value={ty}>
                        {ty}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <Label htmlFor={`f-desc-${r.key}`}>{t.extraction.fieldDescription}</Label>
                  <Input id={`f-desc-${r.key}`} maxLength={1000} value={r.description} onChange={(e) => patch(r.key, { description: e.target.value })} />
                </div>
                <div className="flex items-end gap-1">
                  <Button type="button" size="sm" variant="ghost" aria-label={fmt(t.extraction.moveUp, { name: label })} disabled={i === 0} onClick={() => move(i, -1)}>
                    ↑
                  </Button>
                  <Button type="button" size="sm" variant="ghost" aria-label={fmt(t.extraction.moveDown, { name: label })} disabled={i === rows.length - 1} onClick={() => move(i, 1)}>
                    ↓
                  </Button>
                  <Button type="button" size="sm" variant="ghost" aria-label={fmt(t.extraction.removeField, { name: label })} onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}>
                    ×
                  </Button>
                </div>
                {isEnum(r.type) ? (
                  <div className="md:col-span-3">
                    <Label htmlFor={`f-enum-${r.key}`}>{t.extraction.enumValues}</Label>
                    <Input id={`f-enum-${r.key}`} value={r.enumText} onChange={(e) => patch(r.key, { enumText: e.target.value })} />
                  </div>
                ) : null}
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={r.required} onChange={(e) => patch(r.key, { required: e.target.checked })} />
                  {t.extraction.required}
                </label>
                <FieldRuleEditor id={r.key} name={r.name} type={r.type} draft={r.rule} onChange={(rule) => patch(r.key, { rule })} />
              </div>
            );
          })}
          <Button type="button" variant="secondary" size="sm" onClick={() => setRows((rs) => [...rs, emptyRow()])}>
            {t.extraction.addField}
          </Button>
        </fieldset>
        {problems.length ? (
          <Notice tone="danger" title={t.extraction.invalid}>
            <ul className="list-disc pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {save.isError ? <Notice tone="danger">{requestErrorText(save.error, i18n, labels, t.common.unknownError)}</Notice> : null}
        <div className="flex gap-2">
          <Button type="submit" disabled={save.isPending}>
            {schema ? t.extraction.save : t.extraction.saveNew}
          </Button>
          {schema ? (
            <Button type="button" variant="ghost" className="text-danger" onClick={() => setConfirming(true)}>
              {t.extraction.delete}
            </Button>
          ) : null}
        </div>
      </form>
      {schema ? (
        <div className="mt-3">
          <RunExtractionButton schemaId={schema.id} />
        </div>
      ) : null}
      <DialogRoot open={confirming} onOpenChange={setConfirming}>
        <DialogContent title={fmt(t.extraction.confirmDelete, { name: schema?.name ?? "" })}>
          {remove.isError ? <Notice tone="danger">{errorMessage(remove.error, t.common.unknownError)}</Notice> : null}
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t.common.cancel}
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {t.common.delete}
            </Button>
          </div>
        </DialogContent>
      </DialogRoot>
    </Card>
  );
}

function VersionHistory({ schema, onRolledBack }: { schema: ExtractionSchema; onRolledBack: () => void }) {
  const { locale, t } = useI18n();
  const versions = useQuery({ queryKey: ["schema-versions", schema.id], queryFn: () => listVersions(schema.id) });
  const [diff, setDiff] = useState<SchemaComparison | null>(null);
  const compare = useMutation({ mutationFn: (n: number) => compareVersions(schema.id, n, schema.version), onSuccess: setDiff });
  const rollback = useMutation({ mutationFn: (n: number) => rollbackSchema(schema.id, n), onSuccess: onRolledBack });

  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold">{t.extraction.history}</h2>
      {versions.isPending ? (
        <p className="text-muted">{t.extraction.loading}</p>
      ) : versions.isError ? (
        <Notice tone="danger">{errorMessage(versions.error, t.common.unknownError)}</Notice>
      ) : (
        <ol className="space-y-2">
          {versions.data.versions.map((v) => (
            <li key={v.number} className="flex flex-wrap items-center gap-2 rounded-card border border-line p-2" data-testid="schema-version">
              <span className="font-semibold">{fmt(t.extraction.version, { n: v.number })}</span>
              <span className="text-sm text-muted">
                {formatDate(locale, v.created_at)} · {v.note ?? t.extraction.noteNone}
              </span>
              {v.number !== schema.version ? (
                <span className="ml-auto flex gap-1">
                  <Button size="sm" variant="secondary" onClick={() => compare.mutate(v.number)}>
                    {t.extraction.compareWith}
                  </Button>
                  <Button size="sm" variant="secondary" disabled={rollback.isPending} onClick={() => rollback.mutate(v.number)}>
                    {t.extraction.rollback}
                  </Button>
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {compare.isError ? <Notice tone="danger">{errorMessage(compare.error, t.common.unknownError)}</Notice> : null}
      {rollback.isError ? <Notice tone="danger">{errorMessage(rollback.error, t.common.unknownError)}</Notice> : null}
      {rollback.isSuccess ? <Notice tone="ok">{fmt(t.extraction.rolledBack, { n: rollback.data.version, from: rollback.variables })}</Notice> : null}
      {diff ? <DiffView diff={diff} /> : null}
    </section>
  );
}

function DiffView({ diff }: { diff: SchemaComparison }) {
  const { t } = useI18n();
  const none = !diff.added.length && !diff.removed.length && !diff.changed.length;
  return (
    <Card className="space-y-2 p-4" data-testid="schema-diff">
      <h3 className="font-semibold">{fmt(t.extraction.diffTitle, { a: diff.a, b: diff.b })}</h3>
      {none ? <p className="text-muted">{t.extraction.noDiff}</p> : null}
      {diff.added.length ? (
        <p>
          <span className="font-semibold text-ok">+ {t.extraction.added}:</span> {diff.added.map((f) => `${f.name} (${f.type})`).join(", ")}
        </p>
      ) : null}
      {diff.removed.length ? (
        <p>
          <span className="font-semibold text-danger">− {t.extraction.removed}:</span> {diff.removed.map((f) => `${f.name} (${f.type})`).join(", ")}
        </p>
      ) : null}
      {diff.changed.length ? (
        <div>
          <span className="font-semibold">~ {t.extraction.changed}:</span>
          <ul className="list-disc pl-5">
            {diff.changed.map((c) => (
              <li key={c.name}>
                {c.name}: {c.changes.join(", ")}
                {c.changes.includes("type") ? ` (${c.before.type} → ${c.after.type})` : ""}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
