"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ApiRequestError, errorMessage } from "@/lib/client/api";
import { listCollections } from "@/lib/client/collections-api";
import { createJob } from "@/lib/client/extraction-jobs-api";
import { listSchemas } from "@/lib/client/schemas-api";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

const selectClass = "w-full rounded-card border border-line-strong bg-surface px-2 py-2";

/** The fields a refused submission names (422 EXTRACTION_FIELDS_NEED_MODEL), or null for any other outcome. */
function fieldsNeedingModel(err: unknown): string[] | null {
  if (!(err instanceof ApiRequestError) || err.code !== "EXTRACTION_FIELDS_NEED_MODEL") return null;
  const fields = Array.isArray(err.detail.fields) ? err.detail.fields : [];
  return fields.map((f) => (f && typeof f === "object" && "label" in f ? String(f.label) : "")).filter(Boolean);
}

/**
 * "Run extraction": from a collection (choose the schema) or from a schema (choose the collection). One
 * idempotency key per open dialog, so a double click submits one job. On success the job's page opens. Without a
 * model, a schema with fields rules cannot fill is refused by the server; the dialog then names them and offers
 * "Run anyway", which resubmits with the confirmation (those columns show "needs a model").
 */
export function RunExtractionButton(props: { collectionId?: string; schemaId?: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [schema, setSchema] = useState(props.schemaId ?? "base");
  const [collection, setCollection] = useState(props.collectionId ?? "");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const schemas = useQuery({ queryKey: ["schemas"], queryFn: listSchemas, enabled: open && !props.schemaId });
  const collections = useQuery({ queryKey: ["collections"], queryFn: listCollections, enabled: open && !props.collectionId });
  const run = useMutation({
    mutationFn: (confirm: boolean) =>
      createJob({ schema_id: schema, collection_id: collection, idempotency_key: key, ...(confirm ? { allow_unextractable: true } : {}) }),
    onSuccess: (job) => router.push(`/extractions/jobs/${job.job_id}`),
  });
  const needModel = fieldsNeedingModel(run.error);
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        size="sm"
        onClick={() => {
          setKey(crypto.randomUUID());
          run.reset();
          setOpen(true);
        }}
      >
        {t.extraction.runExtraction}
      </Button>
      <DialogRoot open={open} onOpenChange={setOpen}>
        {open ? (
          <DialogContent title={t.extraction.runTitle} description={t.extraction.runLead}>
            <form
              className="space-y-3"
              onSubmit={(e) => {
                e.preventDefault();
                e.stopPropagation(); // React bubbles through the portal into a surrounding form
                run.mutate(needModel !== null);
              }}
            >
              {!props.schemaId ? (
                <div>
                  <Label htmlFor="run-schema">{t.extraction.schemaLabel}</Label>
                  <select
                    id="run-schema"
                    className={selectClass}
                    value={schema}
                    onChange={(e) => {
                      setSchema(e.target.value);
                      run.reset();
                    }}
                  >
                    <option value="base">{t.extraction.baseSchema}</option>
                    {(schemas.data ?? []).filter((s) => s.id !== "base").map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.name}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              {!props.collectionId ? (
                <div>
                  <Label htmlFor="run-collection">{t.nav.collections}</Label>
                  <select id="run-collection" className={selectClass} value={collection} required onChange={(e) => setCollection(e.target.value)}>
                    <option value="">—</option>
                    {(collections.data ?? []).map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              {schema === "base" ? <p className="text-sm text-ink-muted">{t.extraction.baseRunNote}</p> : null}
              {needModel ? (
                <Notice tone="warn" title={t.extraction.unextractableTitle}>
                  <span data-testid="run-needs-model">{fmt(t.extraction.unextractableBody, { fields: needModel.join(", ") })}</span>
                </Notice>
              ) : run.error ? (
                <Notice tone="danger">{errorMessage(run.error, t.extraction.jobLoadError)}</Notice>
              ) : null}
              <div className="flex justify-end gap-2">
                <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                  {t.extraction.close}
                </Button>
                <Button type="submit" disabled={run.isPending || !collection}>
                  {needModel ? t.extraction.runAnyway : t.extraction.run}
                </Button>
              </div>
            </form>
          </DialogContent>
        ) : null}
      </DialogRoot>
    </>
  );
}
