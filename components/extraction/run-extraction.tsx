"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage } from "@/lib/client/api";
import { listCollections } from "@/lib/client/collections-api";
import { createJob } from "@/lib/client/extraction-jobs-api";
import { listSchemas } from "@/lib/client/schemas-api";
import { useI18n } from "@/lib/i18n/client";

const selectClass = "w-full rounded-card border border-line-strong bg-surface px-2 py-2";

/**
 * "Run extraction": from a collection (choose the schema) or from a schema (choose the collection). One
 * idempotency key per open dialog, so a double click submits one job. On success the job's page opens.
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
    mutationFn: () => createJob({ schema_id: schema, collection_id: collection, idempotency_key: key }),
    onSuccess: (job) => router.push(`/extractions/jobs/${job.job_id}`),
  });
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
                run.mutate();
              }}
            >
              {!props.schemaId ? (
                <div>
                  <Label htmlFor="run-schema">{t.extraction.schemaLabel}</Label>
                  <select id="run-schema" className={selectClass} value={schema} onChange={(e) => setSchema(e.target.value)}>
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
              {run.error ? <Notice tone="danger">{errorMessage(run.error, t.extraction.jobLoadError)}</Notice> : null}
              <div className="flex justify-end gap-2">
                <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                  {t.extraction.close}
                </Button>
                <Button type="submit" disabled={run.isPending || !collection}>
                  {t.extraction.run}
                </Button>
              </div>
            </form>
          </DialogContent>
        ) : null}
      </DialogRoot>
    </>
  );
}
