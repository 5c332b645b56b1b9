"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DialogContent, DialogRoot } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/client/api";
import { requestErrorText } from "@/lib/client/validation";
import { createCollection, deleteCollection, listCollections, renameCollection, type Collection } from "@/lib/client/collections-api";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt, formatDate, plural } from "@/lib/i18n/locale";

/** /collections: the user's collections with counts; create, rename, delete (with confirmation). */
export function CollectionsList() {
  const { locale, t } = useI18n();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ["collections"], queryFn: listCollections });
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<Collection | null>(null);
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ["collections"] });

  const create = useMutation({
    mutationFn: (n: string) => createCollection(n),
    onSuccess: (c) => {
      emit("collection_created", { collection_id: c.id });
      setName("");
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => deleteCollection(id), onSuccess: () => { setDeleting(null); void refresh(); } });

  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate(name.trim());
        }}
      >
        <div className="min-w-0 flex-1 basis-60">
          <Label htmlFor="new-collection">{t.coll.newName}</Label>
          <Input id="new-collection" maxLength={255} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <Button type="submit" disabled={!name.trim() || create.isPending}>
          {t.coll.createButton}
        </Button>
      </form>
      {create.isError ? <Notice tone="danger">{requestErrorText(create.error, { locale, t }, { name: t.coll.newName }, t.common.unknownError)}</Notice> : null}

      {list.isPending ? (
        <div className="space-y-2">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      ) : list.isError ? (
        <Notice tone="danger">{fmt(t.coll.loadError, { message: errorMessage(list.error, t.common.unknownError) })}</Notice>
      ) : list.data.length === 0 ? (
        <p className="rounded-card border border-dashed border-line-strong p-6 text-center text-muted">{t.coll.empty}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {list.data.map((c) => (
            <li key={c.id}>
              <Card className="flex h-full flex-col gap-2 p-4">
                <Link href={`/collections/${encodeURIComponent(c.id)}`} className="font-semibold break-words text-brand hover:underline">
                  {c.name}
                </Link>
                {c.description ? <p className="line-clamp-2 text-sm text-muted">{c.description}</p> : null}
                <p className="text-sm text-muted">
                  {plural(locale, c.document_count, t.coll.count)}
                  {c.updated_at ? ` · ${fmt(t.coll.updated, { date: formatDate(locale, c.updated_at) })}` : null}
                </p>
                <div className="mt-auto flex gap-2">
                  <Button variant="secondary" size="sm" onClick={() => setRenaming(c)}>
                    {t.common.rename}
                  </Button>
                  <Button variant="ghost" size="sm" className="text-danger" onClick={() => setDeleting(c)}>
                    {t.common.delete}
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <RenameDialog collection={renaming} onClose={() => setRenaming(null)} onDone={() => { setRenaming(null); void refresh(); }} />

      <DialogRoot open={!!deleting} onOpenChange={(o) => !o && setDeleting(null)}>
        <DialogContent title={fmt(t.coll.deleteTitle, { name: deleting?.name ?? "" })} description={t.coll.deleteBody}>
          {remove.isError ? <Notice tone="danger">{errorMessage(remove.error, t.common.unknownError)}</Notice> : null}
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setDeleting(null)}>
              {t.common.cancel}
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)}>
              {t.common.delete}
            </Button>
          </div>
        </DialogContent>
      </DialogRoot>
    </div>
  );
}

export function RenameDialog({ collection, onClose, onDone }: { collection: Collection | null; onClose: () => void; onDone: (name: string) => void }) {
  const { locale, t } = useI18n();
  const [value, setValue] = useState("");
  const [forId, setForId] = useState<string | null>(null);
  if (collection && forId !== collection.id) {
    setForId(collection.id);
    setValue(collection.name);
  }
  const rename = useMutation({ mutationFn: (n: string) => renameCollection(collection!.id, n), onSuccess: (_v, n) => onDone(n) });
  return (
    <DialogRoot open={!!collection} onOpenChange={(o) => { if (!o) { setForId(null); onClose(); } }}>
      <DialogContent title={t.common.rename}>
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (value.trim()) rename.mutate(value.trim());
          }}
        >
          {rename.isError ? <Notice tone="danger">{requestErrorText(rename.error, { locale, t }, { name: fmt(t.coll.renameLabel, { name: collection?.name ?? "" }) }, t.common.unknownError)}</Notice> : null}
          <div>
            <Label htmlFor="rename-input">{fmt(t.coll.renameLabel, { name: collection?.name ?? "" })}</Label>
            <Input id="rename-input" maxLength={255} value={value} onChange={(e) => setValue(e.target.value)} />
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              {t.common.cancel}
            </Button>
            <Button type="submit" disabled={!value.trim() || rename.isPending}>
              {t.common.save}
            </Button>
          </div>
        </form>
      </DialogContent>
    </DialogRoot>
  );
}
