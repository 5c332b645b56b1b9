/**
 * Every error code the service answers with, its HTTP status and its default message. The status is
 * a property of the code: a code never answers with two statuses, so a client can branch on `code` alone. No imports:
 * every layer (lib/backend, lib/search, lib/llm, lib/supabase, lib/api) may depend on this file.
 *
 * `docs/errors.md` is generated from this object (`npm run errors:doc`); a unit test fails when the two disagree.
 * `area` only groups the doc's tables.
 */

export type ErrorArea =
  | "request"
  | "auth"
  | "database"
  | "search"
  | "documents"
  | "structured"
  | "events"
  | "llm"
  | "guest"
  | "content"
  | "accounts"
  | "extraction"
  | "imports";

interface ErrorEntry {
  readonly status: number;
  readonly message: string;
  readonly area: ErrorArea;
}

export const ERRORS = {
  // Request handling (lib/api/route.ts): body, content type, CSRF, identity, rate limits.
  INVALID_JSON: { status: 400, message: "The request body is not valid JSON.", area: "request" },
  JSON_TOO_DEEP: { status: 400, message: "The request body nests too deeply.", area: "request" },
  // Answered by the app server (server/app/path-check.ts) before Next, which would answer such a path with a 500.
  INVALID_PATH: { status: 400, message: "The address holds a malformed %-escape, bytes that are not UTF-8, or a NUL.", area: "request" },
  REQUEST_ABORTED: { status: 400, message: "The request body could not be read.", area: "request" },
  BODY_TOO_LARGE: { status: 413, message: "The request body is too large.", area: "request" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: "Send the request with Content-Type: application/json.", area: "request" },
  CSRF_REJECTED: { status: 403, message: "Cross-site requests may not change anything here.", area: "request" },
  // D-14, D-15: every field that failed validation is listed in `fields`.
  VALIDATION_ERROR: { status: 422, message: "The request is not valid.", area: "request" },
  NOT_FOUND: { status: 404, message: "Not found.", area: "request" },
  RATE_LIMITED: { status: 429, message: "Too many requests. Try again later.", area: "request" },
  INTERNAL_ERROR: { status: 500, message: "Something went wrong on our side.", area: "request" },

  // Who the caller is (D-03: 401 for missing or invalid credentials, 403 only for a signed-in caller lacking a role).
  UNAUTHORIZED: { status: 401, message: "Sign in to use this endpoint.", area: "auth" },
  FORBIDDEN: { status: 403, message: "You do not have permission to use this endpoint.", area: "auth" },
  API_KEY_REQUIRED: { status: 401, message: "This endpoint needs a server API key in the X-API-Key header.", area: "auth" },
  INVALID_API_KEY: { status: 401, message: "The API key is not valid.", area: "auth" },
  AUTH_UNAVAILABLE: { status: 503, message: "The sign-in service is unavailable. Try again shortly.", area: "auth" },
  AUTH_ERROR: { status: 500, message: "The sign-in service gave an answer we could not use.", area: "auth" },
  // Supabase Auth's codes on sign-up / sign-in, upper-cased (P-06); the status is ours, fixed per code.
  INVALID_CREDENTIALS: { status: 400, message: "Invalid login credentials.", area: "auth" },
  EMAIL_NOT_CONFIRMED: { status: 400, message: "The e-mail address is not confirmed yet.", area: "auth" },
  USER_BANNED: { status: 400, message: "This account is suspended.", area: "auth" },
  USER_ALREADY_EXISTS: { status: 422, message: "An account with this e-mail address already exists.", area: "auth" },
  EMAIL_EXISTS: { status: 422, message: "An account with this e-mail address already exists.", area: "auth" },
  WEAK_PASSWORD: { status: 422, message: "The password is too weak.", area: "auth" },
  SIGNUP_DISABLED: { status: 422, message: "New accounts cannot be created right now.", area: "auth" },
  // GoTrue answers validation_failed with 400 or 422 depending on the check; ours is always 400.
  VALIDATION_FAILED: { status: 400, message: "The sign-in service could not validate the request.", area: "auth" },
  OVER_REQUEST_RATE_LIMIT: { status: 429, message: "Too many sign-in attempts. Try again later.", area: "auth" },
  OVER_EMAIL_SEND_RATE_LIMIT: { status: 429, message: "Too many e-mails sent. Try again later.", area: "auth" },
  // Any other refusal of Supabase Auth; its own code is in `auth_code`.
  AUTH_REJECTED: { status: 400, message: "The sign-in service refused the request.", area: "auth" },

  // Database calls (lib/errors/upstream.ts fromDatabaseError; D-31 for time-outs).
  DATABASE_UNAVAILABLE: { status: 503, message: "The database is unavailable. Try again shortly.", area: "database" },
  UPSTREAM_TIMEOUT: { status: 504, message: "The database took too long to answer.", area: "database" },
  DATABASE_ERROR: { status: 500, message: "The database call failed.", area: "database" },

  // Search (lib/backend/search.ts, lib/search).
  // D-06: one code for every invalid filter (expression syntax, unknown attribute, bad value, over-cap, object).
  FILTER_INVALID: { status: 422, message: "The filter is not valid.", area: "search" },
  CONFLICTING_FILTER: { status: 400, message: "Pass the filter as `filter` or `filters`, not both.", area: "search" },
  COLLECTION_IDS_NOT_ALLOWED: { status: 400, message: "collection_ids is not accepted by this endpoint.", area: "search" },
  INVALID_SORT: { status: 400, message: "The sort is not valid.", area: "search" },
  INVALID_FACET: { status: 400, message: "The facet attribute is not filterable.", area: "search" },
  SEMANTIC_UNAVAILABLE: { status: 502, message: "Semantic search is unavailable: the embedder is not registered on the index.", area: "search" },
  // SearchEngineError codes (lib/search/errors.ts): the engine failed, the guest meter does not charge.
  SEARCH_ENGINE_UNAVAILABLE: { status: 503, message: "The search engine is unavailable; try again shortly.", area: "search" },
  SEARCH_ENGINE_ERROR: { status: 503, message: "The search engine is unavailable; try again shortly.", area: "search" },
  SEARCH_SETTINGS_MISMATCH: { status: 503, message: "The search engine is unavailable; try again shortly.", area: "search" },
  EMBEDDING_FAILED: { status: 503, message: "The query could not be embedded; try again shortly.", area: "search" },
  SYNC_SESSION_CLOSED: { status: 503, message: "The sync session is already committed or aborted.", area: "search" },

  // Judgments (lib/backend/documents.ts).
  INVALID_ID: { status: 400, message: "The judgment id must be a UUID.", area: "documents" },
  DOCUMENT_NOT_FOUND: { status: 404, message: "Judgment not found.", area: "documents" },
  INVALID_PROVISION: {
    status: 422,
    message: "Not a provision id: write it as the citator does (PL/kk/279/§1, UK/ukpga/1861/100/s18).",
    area: "documents",
  },

  // Structured search, aggregates, collections (spec: Errors).
  INVALID_COLLECTION_ID: { status: 400, message: "The collection id must be a UUID.", area: "structured" },
  // D-30: the same answer for a foreign id and one that does not exist.
  COLLECTION_NOT_FOUND: { status: 404, message: "Collection not found.", area: "structured" },
  FILTER_EMPTY: { status: 400, message: "The filter matches no judgments.", area: "structured" },
  FILTER_TOO_LARGE: { status: 413, message: "The filter matches too many judgments to save.", area: "structured" },
  FIELD_NOT_AGGREGABLE: { status: 422, message: "The field is not aggregable.", area: "structured" },
  AGGREGATE_FAILED: { status: 500, message: "The aggregate could not be computed.", area: "structured" },
  FACETS_FAILED: { status: 500, message: "The facet counts could not be computed.", area: "structured" },
  FILTER_FAILED: { status: 500, message: "The filter could not be run.", area: "structured" },
  // Cited cohorts (lib/backend/cohorts): an unknown short id.
  COHORT_NOT_FOUND: { status: 404, message: "Cohort not found.", area: "structured" },
  // The search history page deletes a row of the caller's own history; another user's id answers the same.
  SEARCH_HISTORY_ENTRY_NOT_FOUND: { status: 404, message: "Search history entry not found.", area: "search" },

  // Analytics events (lib/backend/events.ts, D-24): the whole batch is refused, naming the event.
  EVENT_BATCH_INVALID: { status: 422, message: "The batch must be {events: [...]}.", area: "events" },
  EVENT_BATCH_TOO_LARGE: { status: 422, message: "The batch holds too many events.", area: "events" },
  EVENT_INVALID: { status: 422, message: "An event is not valid.", area: "events" },
  EVENT_UNKNOWN: { status: 422, message: "An event name is not allowed.", area: "events" },
  EVENT_NOT_ALLOWED: { status: 422, message: "An event is recorded by the server only.", area: "events" },
  EVENT_FORBIDDEN_PROPERTY: { status: 422, message: "An event carries a forbidden property.", area: "events" },
  EVENT_TOO_LARGE: { status: 422, message: "An event's properties are too large.", area: "events" },

  // Natural-language filter (lib/llm).
  NL_FILTER_INVALID: { status: 422, message: "The question gave a filter that is not valid; rephrase it.", area: "llm" },
  NL_FILTER_FAILED: { status: 502, message: "The question could not be translated into a filter. Try again later.", area: "llm" },
  LLM_NOT_CONFIGURED: { status: 503, message: "No language model is configured on this server.", area: "llm" },
  // Chat with retrieval: another user's thread is the same 404 as no thread (D-30).
  CHAT_THREAD_NOT_FOUND: { status: 404, message: "Chat thread not found.", area: "llm" },
  INVALID_CHAT_THREAD_ID: { status: 400, message: "The chat thread id must be a UUID.", area: "llm" },
  CHAT_GENERATION_FAILED: { status: 502, message: "The language model did not answer; try again shortly.", area: "llm" },

  // Topic modelling and the topics index (analysis-topics).
  TOPIC_RUN_NOT_FOUND: { status: 404, message: "Topic run not found.", area: "search" },
  TOPIC_NOT_FOUND: { status: 404, message: "The topic is not in the current topics index.", area: "search" },
  TOPIC_RUN_FAILED: { status: 500, message: "The topic run could not be computed.", area: "search" },
  // Extraction area: schemas with versions, extraction jobs. D-30: a foreign id answers as one that does not exist.
  INVALID_SCHEMA_ID: { status: 400, message: "The schema id must be a UUID.", area: "extraction" },
  SCHEMA_NOT_FOUND: { status: 404, message: "Extraction schema not found.", area: "extraction" },
  SCHEMA_VERSION_NOT_FOUND: { status: 404, message: "This version of the extraction schema does not exist.", area: "extraction" },
  // The admin Imports page (lib/backend/imports): uploads of one file to the importers.
  IMPORT_SOURCE_UNDETECTED: { status: 422, message: "The file's source could not be told from its first bytes: choose the source.", area: "imports" },
  IMPORT_RUN_NOT_FOUND: { status: 404, message: "Import run not found.", area: "imports" },
  SCHEMA_INVALID: { status: 422, message: "The schema's fields do not form a valid JSON Schema.", area: "extraction" },
  SCHEMA_GENERATION_FAILED: { status: 502, message: "The model did not answer with a usable schema. Try again later.", area: "extraction" },
  EXTRACTION_JOB_NOT_FOUND: { status: 404, message: "Extraction job not found.", area: "extraction" },
  INVALID_JOB_ID: { status: 400, message: "The extraction job id must be a UUID.", area: "extraction" },
  EXTRACTION_DOCUMENTS_NOT_FOUND: { status: 422, message: "Some of the documents do not exist.", area: "extraction" },
  EXTRACTION_NO_DOCUMENTS: { status: 422, message: "The job names no documents (the collection is empty).", area: "extraction" },
  EXTRACTION_TOO_MANY_DOCUMENTS: { status: 422, message: "An extraction job takes at most 5,000 documents.", area: "extraction" },
  EXTRACTION_FIELDS_NEED_MODEL: {
    status: 422,
    message: "Some fields of this schema cannot be filled without a language model. Give them a rule in the schema editor, or confirm to run anyway.",
    area: "extraction",
  },
  // P-47: a state conflict, not a rate limit: the caller waits for a job to finish (or cancels one), not for a window.
  EXTRACTION_RUNNING_LIMIT: { status: 409, message: "You already have the maximum number of extraction jobs queued or running. Wait for one to finish or cancel one.", area: "extraction" },
  EXTRACTION_JOB_NOT_FINISHED: { status: 409, message: "The extraction job is still queued or running.", area: "extraction" },
  EXTRACTION_JOB_FINISHED: { status: 409, message: "The extraction job has already finished.", area: "extraction" },
  EXTRACTION_NOTHING_TO_RETRY: { status: 409, message: "The extraction job has no failed documents to retry.", area: "extraction" },

  // Guest metering (D-11, D-15: the 429 carries `upgrade_url`).
  GUEST_LIMIT_REACHED: { status: 429, message: "You have used all guest searches. Create a free account to keep searching.", area: "guest" },
  GUEST_STORE_UNAVAILABLE: { status: 503, message: "The guest session could not be ended right now. Try again shortly.", area: "guest" },

  // Admin area (roles, bans, panel; docs/admin.md).
  SELF_ROLE_CHANGE: { status: 409, message: "You cannot revoke your own admin role or ban yourself.", area: "auth" },
  USER_NOT_FOUND: { status: 404, message: "User not found.", area: "auth" },
  DASHBOARD_UNAVAILABLE: { status: 503, message: "The dashboard statistics could not be computed right now. Try again shortly.", area: "database" },
  // Content area (blog, publications, contact form).
  POST_NOT_FOUND: { status: 404, message: "Post not found.", area: "content" },
  PUBLICATION_NOT_FOUND: { status: 404, message: "Publication not found.", area: "content" },
  CONTACT_MESSAGE_NOT_FOUND: { status: 404, message: "Message not found.", area: "content" },
  // Accounts (helper "accounts"): saved searches, alerts, settings.
  INVALID_SAVED_SEARCH_ID: { status: 400, message: "The saved search id must be a UUID.", area: "accounts" },
  // D-30: the same answer for another user's id and one that does not exist.
  SAVED_SEARCH_NOT_FOUND: { status: 404, message: "Saved search not found.", area: "accounts" },
  SAVED_SEARCH_LIMIT: { status: 409, message: "You have reached the maximum number of saved searches.", area: "accounts" },
  UNSUBSCRIBE_TOKEN_INVALID: { status: 400, message: "This unsubscribe link is not valid or has already been used.", area: "accounts" },
  CURRENT_PASSWORD_WRONG: { status: 403, message: "The current password is not right.", area: "accounts" },
  CONFIRMATION_MISMATCH: { status: 422, message: "Type the confirmation text exactly to delete the account.", area: "accounts" },
  MAIL_NOT_CONFIGURED: { status: 503, message: "No mail server is configured (SMTP_URL).", area: "accounts" },
  EMBEDDER_UNAVAILABLE: { status: 422, message: "This server does not offer that embedder; pick one from the available list.", area: "accounts" },
  REEMBED_IN_PROGRESS: { status: 409, message: "The search index is being re-embedded; wait until it finishes.", area: "accounts" },
  // Digest runs are serialised (lib/backend/alerts/digest.ts): a second run is refused, not queued.
  // Alert mail goes only to confirmed addresses (a trigger on saved_searches refuses switching an alert on).
  ALERT_EMAIL_UNCONFIRMED: { status: 409, message: "Confirm your e-mail address before turning on alerts.", area: "accounts" },
  ALERT_RUN_IN_PROGRESS: { status: 409, message: "An e-mail digest run is already in progress; try again when it has finished.", area: "accounts" },
  // The reference API for servers and the users' API keys (api-v1 area).
  API_KEY_LIMIT: { status: 409, message: "You already have the maximum number of active API keys; revoke one first.", area: "auth" },
  API_KEY_NOT_FOUND: { status: 404, message: "API key not found.", area: "auth" },
  API_KEY_USER_REQUIRED: { status: 403, message: "This API key is not issued to a user, so it cannot read user data.", area: "auth" },
  // Assistant tools: precedents, argumentation, summaries and key points in model mode.
  ARGUMENTATION_OUTPUT_INVALID: { status: 502, message: "The language model's argument analysis did not have the expected structure. Try again later.", area: "llm" },
  ASSISTANT_OUTPUT_INVALID: { status: 502, message: "The language model's answer did not have the expected structure. Try again later.", area: "llm" },
  ASSISTANT_MODEL_FAILED: { status: 502, message: "The language model could not be reached or failed. Try again later.", area: "llm" },
  ASSISTANT_MODEL_TIMEOUT: { status: 504, message: "The language model took too long to answer.", area: "llm" },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERRORS;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

export function statusOf(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** The reference API's `error` name of each status (`/api/v1/**`, R-ERR-003). */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  413: "PayloadTooLarge",
  415: "UnsupportedMediaType",
  422: "ValidationError",
  429: "RateLimitExceeded",
  500: "InternalServerError",
  501: "NotImplemented",
  502: "BadGateway",
  503: "ServiceUnavailable",
  504: "GatewayTimeout",
};

/** The reference `error` name of a status: the one place it is derived. */
export function statusName(status: number): string {
  return STATUS_NAMES[status] ?? (status >= 500 ? "InternalServerError" : "BadRequest");
}
