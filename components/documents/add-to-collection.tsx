"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClass } from "@/components/ui/field";
import { cx } from "@/components/ui/cx";
import { useSessionUser } from "@/components/shell/user-context";
import { errorMessage } from "@/lib/client/api";
import { addDocuments, listCollections } from "@/lib/client/collections-api";
import { emit } from "@/lib/client/track";
import { useI18n } from "@/lib/i18n/client";
import { fmt } from "@/lib/i18n/locale";

export function AddToCollection({ documentId }: { documentId: string }) {
  const { t } = useI18n();
  const user = useSessionUser();
  const qc = useQueryClient();
  const [chosen, setChosen] = useState("");
  const collections = useQuery({ queryKey: ["collections"], queryFn: listCollections, enabled: !!user });
  const add = useMutation({
    mutationFn: (id: string) => addDocuments(id, [documentId]),
    onSuccess: (_v, id) => {
      emit("collection_item_added", { collection_id: id, count: 1 });
      void qc.invalidateQueries({ queryKey: ["collections"] });
    },
  });

  if (!user) {
    return (
      <p className="text-sm text-muted">
        <Link href={`/sign-in?next=/documents/${encodeURIComponent(documentId)}`} className="font-medium text-brand underline">
          {t.header.signIn}
        </Link>{" "}
        — {t.doc.signInToCollect}
      </p>
    );
  }
  const list = collections.data ?? [];
  const selected = chosen || list[0]?.id || "";
  const name = list.find((c) => c.id === selected)?.name ?? "";
  return (
    <section aria-labelledby="add-h" className="text-sm">
      <h2 id="add-h" className="mb-2 font-semibold">
        {t.doc.addToCollection}
      </h2>
      {collections.isSuccess && list.length === 0 ? (
        <p className="text-muted">
          {t.doc.noCollections}{" "}
          <Link href="/collections" className="text-brand underline">
            {t.nav.collections}
          </Link>
        </p>
      ) : (
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (selected) add.mutate(selected);
          }}
        >
          <label htmlFor="add-collection" className="sr-only">
            {t.doc.chooseCollection}
          </label>
          <select id="add-collection" className={cx(controlClass, "h-9 min-w-0 flex-1")} value={selected} onChange={(e) => setChosen(e.target.value)} disabled={!list.length}>
            {list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" className="h-9" disabled={!selected || add.isPending}>
            {t.common.save}
          </Button>
        </form>
      )}
      <div aria-live="polite" className="mt-2">
        {add.isSuccess ? <p className="text-ok">{fmt(t.doc.added, { name })}</p> : null}
        {add.isError ? <p className="text-danger">{fmt(t.doc.addFailed, { message: errorMessage(add.error, t.common.unknownError) })}</p> : null}
      </div>
    </section>
  );
}
