import { Skeleton } from "@/components/ui/skeleton";

/** While a profile or comparison is read on the server (a level's first profile counts its phrases: a few seconds). */
export function JudgeSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" data-testid="judge-loading">
      <Skeleton className="h-10 w-1/2" />
      <Skeleton className="h-96 w-full" />
    </div>
  );
}
