import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/backend/api-keys";
import { adminPool } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";
import { serviceClient } from "../helpers/supabase";

/**
 * The user-free filter path on the reference API, and a null filter on
 * from-filter.
 */
const pool = adminPool();
const V1_FILTER = "/api/v1/extractions/base-schema/filter";
const WEB_FILTER = "/api/extractions/base-schema/filter";

let key: { id: string; key: string };
let user: Browser;
let userId: string;

beforeAll(async () => {
  key = await createApiKey(serviceClient(), { name: `audit structured ${Date.now()}` });
  const signedIn = await signedInBrowser();
  user = signedIn.browser;
  userId = signedIn.user.id;
});

afterAll(async () => {
  await revokeApiKey(serviceClient(), key.id).catch(() => undefined);
  await pool.end();
});

/** The error code in the service envelope ({detail: {code}}) or the reference one ({error, details: {code}}) under /api/v1. */
function errorCode(body: Record<string, unknown>): unknown {
  const detail = (body.detail ?? body.details) as Record<string, unknown> | undefined;
  return detail?.code;
}

describe("POST /api/v1/extractions/base-schema/filter: user-free, API key only (R-END-037, D-17, R-AUTH-028)", () => {
  it("answers an API-key caller without any user session with the same page as the signed-in web route", async () => {
    const request = { filters: { jurisdiction: ["PL"] }, limit: 5, offset: 0 };
    const v1 = await new Browser().post(V1_FILTER, request, { "x-api-key": key.key });
    expect(v1.status).toBe(200);
    const body = (await v1.json()) as { results: { id: string; jurisdiction: string }[]; total: number; limit: number; offset: number; has_more: boolean };
    const web = (await (await user.post(WEB_FILTER, request)).json()) as typeof body;
    expect(body.results.length).toBe(5);
    expect(body.results.every((r) => r.jurisdiction === "PL")).toBe(true);
    expect(body).toEqual(web);
    const completedPL = Number(
      (await pool.query<{ n: string }>("select count(*) as n from public.judgments where base_extraction_status = 'completed' and jurisdiction = 'PL'")).rows[0].n,
    );
    expect(body.total).toBe(completedPL);
  });

  it("refuses collection_ids (400 COLLECTION_IDS_NOT_ALLOWED), a bad filter (422 FILTER_INVALID) and a missing key (401)", async () => {
    const h = { "x-api-key": key.key };
    const withIds = await new Browser().post(V1_FILTER, { filters: { collection_ids: [] } }, h);
    expect(withIds.status).toBe(400);
    expect(errorCode(await withIds.json())).toBe("COLLECTION_IDS_NOT_ALLOWED");
    const bad = await new Browser().post(V1_FILTER, { filters: { offender_gender: ["robot"] } }, h);
    expect(bad.status).toBe(422);
    expect(errorCode(await bad.json())).toBe("FILTER_INVALID");
    const noKey = await new Browser().post(V1_FILTER, { filters: {} });
    expect(noKey.status).toBe(401);
    expect(errorCode(await noKey.json())).toBe("API_KEY_REQUIRED");
    const tooMany = await new Browser().post(V1_FILTER, { filters: {}, limit: 101 }, h);
    expect(tooMany.status).toBe(422);
  });
});

describe("POST /api/collections/from-filter refuses filters: null (R-END-075)", () => {
  it("422 VALIDATION_ERROR naming filters, and no collection is created", async () => {
    const count = async () =>
      Number((await pool.query<{ n: string }>("select count(*) as n from public.collections where user_id = $1", [userId])).rows[0].n);
    const before = await count();
    const res = await user.post("/api/collections/from-filter", { name: "null filter", filters: null });
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: { code: string; fields: { field: string }[] } }).detail;
    expect(detail.code).toBe("VALIDATION_ERROR");
    expect(detail.fields.map((f) => f.field)).toContain("filters");
    expect(await count()).toBe(before);
  });
});
