"use client";

import { Button } from "./button";
import { DialogContent, DialogRoot } from "./dialog";

/**
 * "Are you sure?" before a destructive action: open while `open`, Cancel or Escape calls `onCancel`, the danger button
 * calls `onConfirm` (the caller closes the dialog and runs the action).
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  onConfirm: () => void | Promise<void>;
  onCancel: () => void;
}) {
  return (
    <DialogRoot open={props.open} onOpenChange={(o) => (o ? null : props.onCancel())}>
      {props.open ? (
        <DialogContent title={props.title} description={props.description}>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={props.onCancel}>
              {props.cancelLabel}
            </Button>
            <Button variant="danger" disabled={props.busy} onClick={() => void props.onConfirm()}>
              {props.confirmLabel}
            </Button>
          </div>
        </DialogContent>
      ) : null}
    </DialogRoot>
  );
}
