/** The error catalogue, the error class and the mappers of upstream failures; no imports from the HTTP layer. */
export { ERRORS, STATUS_NAMES, isErrorCode, statusName, statusOf, type ErrorArea, type ErrorCode } from "./catalogue";
export { ApiError, authUnavailable, databaseUnavailable, forbidden, notFound, unauthorized, upstreamTimeout } from "./api-error";
export { authOutage, fromAuthError, fromDatabaseError, type AuthErrorLike, type DatabaseError } from "./upstream";
