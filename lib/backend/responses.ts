/**
 * The bodies of the web routes the browser calls, gathered for lib/client. Each is defined once, beside the backend
 * function that builds it; lib/client imports them with `import type` only, so no server code reaches the browser.
 */
import type { autocomplete, suggest } from "./search";

export type { SearchDocumentsBody } from "./search";
/** GET /api/search/autocomplete. */
export type AutocompleteBody = Awaited<ReturnType<typeof autocomplete>>;
/** GET /api/search/suggest. */
export type SuggestBody = Awaited<ReturnType<typeof suggest>>;

export type {
  Collection,
  CollectionDocument,
  CollectionDocumentPage,
  CollectionPage,
  CollectionWithDocuments,
} from "./collections/collections";
export type { FromFilterResponse } from "./collections/from-filter";

export type { AggregateResult, CategoricalDist, Distribution, NumericDist, YearDist } from "./extractions/aggregate";
export type { FacetsResponse } from "./extractions/facets";
export type { FilterResponse, FilterResultRow } from "./extractions/filter";
export type { NlFilterResult } from "@/lib/llm/nl-filter";
export type { NlPreviewResponse } from "./extractions/nl-preview";

// Admin area: panel, users, dashboard statistics.
export type { AdminActivity, ActivityItem, AdminStats, AuditEntry, DocumentsStats, SystemHealth } from "./admin/stats";
export type { AdminUser, AdminUserPage, AdminUserState } from "./admin/users";
export type { ImportRejection, ImportRun, ImportRunDetail, ImportRunPage } from "./imports/runs";
export type { DashboardStats } from "./dashboard";
// The citator: a judgment's references and the judgments citing it.
export type { CitedByBody, DocumentReference, DocumentReferencesBody } from "./citations";
export type { CitingItem as CitingJudgment, CitingList } from "./citations";
export type { LegislationLookupBody, ProvisionBody } from "./legislation";
// Content area: blog, publications, contact form.
export type {
  BlogAdminPage,
  BlogCategories,
  BlogPostAdmin,
  BlogPostAdminRow,
  BlogPostDetail,
  BlogPostPage,
  BlogPostSummary,
  BlogStats,
} from "./content/blog";
export type { Publication, PublicationPage } from "./content/publications";
export type { ContactAccepted, ContactMessage, ContactMessagePage } from "./content/contact";
export type { ContentStats } from "./content/stats";
// Accounts: saved searches, settings, the unsubscribe link, the admin mail view.
export type { SavedSearch, SavedSearchPage, SavedSearchRun } from "./saved-searches/saved-searches";
export type { Profile } from "./settings/profile";
export type { UnsubscribeBody } from "./alerts/unsubscribe";
export type { MailMessageRow, MailPage } from "./admin-mail";
export type { EmbeddingsSettings } from "./settings/embeddings";
// Topic modelling and the topics routes (analysis-topics).
export type { TopicRunPage, TopicRunParams, TopicRunResponse, TopicRunSummary } from "./topics/runs";
export type { MyTopicClick, MyTopicClicksBody, TopicsMeta, TrendingTopic, TrendingTopicsBody } from "./topics/public";
// --- analysis-lines: judge fingerprint and reasoning lines ---
export type { JudgeComparison, JudgeEvidence, JudgeProfile, JudgeSearchResult } from "./analysis/judges";
export type {
  CandidateLine,
  DiscoverResult,
  DriftAnalysis,
  LineDag,
  LineDetail,
  LineEvent,
  LineMember,
  LinePage,
  LineSearchHit,
  LineTimeline,
  OutcomeAnalysis,
  ReasoningLine,
} from "./analysis/reasoning-lines";
// The reference API for servers and the users' API keys (api-v1 area).
export type { UserApiKey, UserApiKeyList } from "./api-keys";
// Extraction area: schemas with versions.
export type {
  ExtractionSchema,
  FieldChange,
  SchemaComparison,
  SchemaPage,
  SchemaSummary,
  SchemaVersion,
  SchemaVersionList,
} from "./schemas/schemas";
export type { GeneratedSchema } from "./schemas/generate";
// Assistant tools.
export type { PrecedentsResponse } from "./assistants/precedents";
export type { ArgumentationResponse } from "./assistants/argumentation";
export type { KeyPointsResponse, SummarizeResponse, VersionsResponse } from "./assistants/document-helpers";
export type { CompareCategoricalField, CompareCohortsResponse, CompareField, CompareNumericField, CompareValueRow, NumericSummary } from "./cohorts/compare";
export type { CitedCohort, CohortMember, CreatedCohort } from "./cohorts/citations";
export type { SearchHistoryPage, SearchHistoryRow } from "./search-analytics";
