import { Skeleton } from "@/components/ui/skeleton";

/** While a profile is read on the server (a level's first profile counts its phrases: a few seconds). */
export default function Loading() {
  return (
    <div className="space-y-4" aria-busy="true">
      <Skeleton className="h-10 w-1/2" />
      <Skeleton className="h-96 w-full" />
    </div>
  );
}
