import { describe, expect, it } from "vitest";
import { routeAuthLevel } from "@/lib/auth/public-routes";

describe("routeAuthLevel (the allowlist applied by withRoute)", () => {
  it("keeps public only for allowlisted method + path combinations and API-key routes", () => {
    expect(routeAuthLevel("public", "GET", "/api/search/documents")).toBe("public");
    expect(routeAuthLevel("public", "POST", "/api/search/documents")).toBe("user");
    expect(routeAuthLevel("public", "GET", "/api/search/documents/extra")).toBe("user");
    expect(routeAuthLevel("public", "GET", "/api/v1/documents")).toBe("public");
    expect(routeAuthLevel("public", "GET", "/api/collections")).toBe("user");
  });

  it("never loosens a declared level", () => {
    expect(routeAuthLevel("user", "GET", "/api/search/documents")).toBe("user");
    expect(routeAuthLevel("admin", "GET", "/api/search/documents")).toBe("admin");
  });
});
