import pino from "pino";

/** One structured logger for server code. Secrets never go in log fields (redacted here as a last guard). */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  redact: {
    paths: ["password", "*.password", "token", "*.token", "authorization", "*.authorization", "apikey", "*.apikey", "cookie", "*.cookie"],
    censor: "[redacted]",
  },
  base: undefined,
});
