"use client";

import dynamic from "next/dynamic";
import "swagger-ui-react/swagger-ui.css";

// swagger-ui renders in the browser only (it touches window on import); the bundle is served by this app, no CDN.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), { ssr: false });

/**
 * The rendered OpenAPI document of /api/v1 (swagger-ui, an established renderer). Its own "Try it out" sends the key
 * entered under "Authorize"; the box beside it (TryIt) is the shorter path.
 */
export function ApiReference({ url }: { url: string }) {
  return (
    <div className="rounded-card border border-line bg-white" data-testid="api-reference">
      <SwaggerUI url={url} docExpansion="list" defaultModelsExpandDepth={0} tryItOutEnabled={false} />
    </div>
  );
}
