import { createHash } from "node:crypto";
import Redis from "ioredis";

/** The endpoints of Upstash's REST API the bridge serves. */
export type UpstashPath = "" | "/pipeline" | "/multi-exec";

export function isUpstashPath(p: string): p is UpstashPath {
  return p === "" || p === "/pipeline" || p === "/multi-exec";
}

/** One reply as Upstash's REST API writes it. */
export type UpstashReply = { result: unknown } | { error: string };

/** Redis refused the command (a reply error): Upstash answers these with 400 or per pipeline entry. */
export class UpstashCommandError extends Error {}

/** Redis could not be reached (down after start, time-out): answered 503, nothing was executed or it is unknown. */
export class RedisUnavailableError extends Error {}

/** ioredis reports server replies as ReplyError; anything else is the connection failing. */
function asBridgeError(e: unknown): Error {
  const err = e as Error;
  if (err instanceof UpstashCommandError || err instanceof RedisUnavailableError) return err;
  return err.name === "ReplyError" ? new UpstashCommandError(err.message) : new RedisUnavailableError(err.message);
}

/**
 * Commands that would break the bridge's single shared connection (pub/sub mode, another database, protocol or
 * reply-mode switches, replication, shutdown) or block it for every other caller.
 */
const REFUSED = new Set([
  "subscribe", "psubscribe", "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "monitor", "select",
  "quit", "reset", "hello", "client", "sync", "psync", "replicaof", "slaveof", "shutdown", "debug", "failover",
  "blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax", "bzmpop", "wait", "waitaof",
]);

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/**
 * Redis 7.0 rejects scripts whose `#!lua flags=...` shebang names a flag it does not know; @upstash/ratelimit's
 * scripts start with `#!lua flags=allow-key-locking`. Dropping the shebang line runs them with default flags.
 */
function stripShebang(script: string): string {
  if (!script.startsWith("#!")) return script;
  const nl = script.indexOf("\n");
  return nl === -1 ? "" : script.slice(nl + 1);
}

interface StoredScript {
  /** sha1 of the script Redis actually holds (shebang removed). */
  sha: string;
  script: string;
}

interface Prepared {
  args: string[];
  /** Rewrites the reply (SCRIPT LOAD answers the sha the client computed). */
  post?: (reply: unknown) => unknown;
  /** For EVALSHA of a stripped script: the script to EVAL when Redis answers NOSCRIPT. */
  fallback?: string[];
}

function toArg(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v === null || v === undefined) return "";
  return JSON.stringify(v);
}

/**
 * The Upstash REST protocol (`POST /` with `["SET","k","v"]`, `/pipeline`, `/multi-exec`) over a real Redis through
 * ioredis, so `@upstash/redis` and `@upstash/ratelimit` run unchanged against a local server: behind the local
 * gateway's `/upstash` route (supabase/local/gateway/upstash/router.ts), and in the app's own process as the limits
 * store's transport when LIMITS_REDIS_URL is set (lib/backend/rate-limit-store.ts).
 */
export class UpstashBridge {
  private readonly scripts = new Map<string, StoredScript>();

  private constructor(
    private readonly redis: Redis,
    readonly redisUrl: string,
  ) {}

  /** A client that connects on its first command and reconnects on its own; connection errors are logged once each. */
  private static client(redisUrl: string, log: (l: string) => void): Redis {
    let reported = false;
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 1500,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    redis.on("error", (e: Error) => {
      if (!reported) log(`redis ${redisUrl}: ${e.message}`);
      reported = true;
    });
    redis.on("ready", () => {
      reported = false;
    });
    return redis;
  }

  /**
   * A bridge that connects on its first command (the app's limits store with LIMITS_REDIS_URL: it is built
   * synchronously, and a Redis that is down is the caller's failure to handle, per command).
   */
  static lazy(redisUrl: string, log: (l: string) => void): UpstashBridge {
    return new UpstashBridge(UpstashBridge.client(redisUrl, log), redisUrl);
  }

  /** Connect and PING; null when no Redis answers (the app then falls back to process memory). */
  static async connect(redisUrl: string, log: (l: string) => void): Promise<UpstashBridge | null> {
    const redis = UpstashBridge.client(redisUrl, log);
    try {
      await redis.connect();
      await redis.ping();
      return new UpstashBridge(redis, redisUrl);
    } catch {
      redis.disconnect();
      return null;
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private prepare(command: unknown, inTransaction: boolean): Prepared {
    if (!Array.isArray(command) || command.length === 0 || typeof command[0] !== "string" || command[0] === "") {
      throw new UpstashCommandError("ERR failed to parse command: expected a JSON array starting with the command name");
    }
    const args = command.map(toArg);
    const name = args[0].toLowerCase();
    // ioredis rewrites some replies client-side by lower-case command name (HGETALL becomes an object); the
    // upper-case name bypasses that, so the raw Redis reply reaches the client as Upstash would send it.
    args[0] = args[0].toUpperCase();
    if (REFUSED.has(name)) throw new UpstashCommandError(`ERR command '${args[0]}' is not supported by the local Upstash bridge`);
    if (name === "xread" || name === "xreadgroup") {
      if (args.some((a) => a.toLowerCase() === "block")) throw new UpstashCommandError("ERR blocking XREAD is not supported by the local Upstash bridge");
    }
    if ((name === "eval" || name === "eval_ro") && args.length > 1) {
      const stripped = stripShebang(args[1]);
      if (stripped !== args[1]) this.scripts.set(sha1(args[1]), { sha: sha1(stripped), script: stripped });
      return { args: [args[0], stripped, ...args.slice(2)] };
    }
    if ((name === "evalsha" || name === "evalsha_ro") && args.length > 1) {
      const stored = this.scripts.get(args[1].toLowerCase());
      if (!stored) return { args };
      const evalName = name === "evalsha" ? "EVAL" : "EVAL_RO";
      const asEval = [evalName, stored.script, ...args.slice(2)];
      // Inside MULTI a NOSCRIPT cannot be retried, so send the script itself.
      if (inTransaction) return { args: asEval };
      return { args: [args[0], stored.sha, ...args.slice(2)], fallback: asEval };
    }
    if (name === "script" && args.length > 2 && args[1].toLowerCase() === "load") {
      const original = args[2];
      const stripped = stripShebang(original);
      if (stripped === original) return { args };
      const originalSha = sha1(original);
      this.scripts.set(originalSha, { sha: sha1(stripped), script: stripped });
      return { args: [args[0], args[1], stripped], post: () => originalSha };
    }
    if (name === "script" && args.length > 2 && args[1].toLowerCase() === "exists") {
      const shas = args.slice(2).map((s) => this.scripts.get(s.toLowerCase())?.sha ?? s);
      return { args: [args[0], args[1], ...shas] };
    }
    return { args };
  }

  /**
   * One request of Upstash's REST API as its JSON answer: `path` "" (one command: `{result}`), "/pipeline" or
   * "/multi-exec" (a non-empty array of commands: `[{result} | {error}]`). Replies are UTF-8 text, or base64 when the
   * client asked for it. Throws UpstashCommandError (answered 400) and RedisUnavailableError (503).
   */
  async rest(path: UpstashPath, body: unknown, base64: boolean): Promise<unknown> {
    if (path === "") return { result: encodeReply(await this.command(body), base64) };
    if (!Array.isArray(body) || body.length === 0) {
      throw new UpstashCommandError("ERR failed to parse pipeline request: expected a non-empty array of commands");
    }
    const replies = path === "/pipeline" ? await this.pipeline(body) : await this.multiExec(body);
    return replies.map((r) => ("error" in r ? r : { result: encodeReply(r.result, base64) }));
  }

  /** Whether a command goes out at once: connected and ready (before that, ioredis queues it until it is). */
  get ready(): boolean {
    return this.redis.status === "ready";
  }

  /**
   * A Lua script by its SHA-1, sent again as EVAL when Redis does not hold it (NOSCRIPT); replies as ioredis gives them
   * (integers as numbers). With the connection ready the command is written before this returns, which the limiter's
   * direct path relies on (rate-limit-store.ts `storeScript`). Errors as `command` throws them.
   */
  async evalScript(sha: string, script: string, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (e) {
      const err = asBridgeError(e);
      if (!(err instanceof UpstashCommandError && err.message.startsWith("NOSCRIPT"))) throw err;
      return this.redis.eval(script, keys.length, ...keys, ...args).catch((e2: unknown) => {
        throw asBridgeError(e2);
      });
    }
  }

  /** One command (POST /upstash): a Redis error is thrown as UpstashCommandError (Upstash answers it with 400). */
  async command(command: unknown): Promise<unknown> {
    const prepared = this.prepare(command, false);
    try {
      const reply = await this.redis.callBuffer(prepared.args[0], ...prepared.args.slice(1));
      return prepared.post ? prepared.post(reply) : reply;
    } catch (e) {
      const err = asBridgeError(e);
      if (prepared.fallback && err instanceof UpstashCommandError && err.message.startsWith("NOSCRIPT")) {
        return this.redis.callBuffer(prepared.fallback[0], ...prepared.fallback.slice(1)).catch((e2: unknown) => {
          throw asBridgeError(e2);
        });
      }
      throw err;
    }
  }

  /** POST /upstash/pipeline: each command answered on its own, errors per entry. */
  async pipeline(commands: unknown[]): Promise<UpstashReply[]> {
    const prepared: (Prepared | UpstashCommandError)[] = commands.map((c) => {
      try {
        return this.prepare(c, true);
      } catch (e) {
        if (e instanceof UpstashCommandError) return e;
        throw e;
      }
    });
    const runnable = prepared.filter((p): p is Prepared => !(p instanceof UpstashCommandError));
    const pipe = this.redis.pipeline();
    for (const p of runnable) pipe.callBuffer(p.args[0], ...p.args.slice(1));
    const results = runnable.length ? ((await pipe.exec().catch((e: unknown) => Promise.reject(asBridgeError(e)))) ?? []) : [];
    for (const [err] of results) if (err && asBridgeError(err) instanceof RedisUnavailableError) throw asBridgeError(err);
    let i = 0;
    return prepared.map((p) => {
      if (p instanceof UpstashCommandError) return { error: p.message };
      const [err, reply] = results[i++] ?? [new Error("ERR no reply"), null];
      if (err) return { error: err.message };
      return { result: p.post ? p.post(reply) : reply };
    });
  }

  /**
   * POST /upstash/multi-exec: MULTI … EXEC. A command Redis refuses while queueing aborts the whole transaction
   * (thrown, answered 400 like Upstash); errors while executing are reported per entry.
   */
  async multiExec(commands: unknown[]): Promise<UpstashReply[]> {
    const prepared = commands.map((c) => this.prepare(c, true));
    const multi = this.redis.multi();
    for (const p of prepared) multi.callBuffer(p.args[0], ...p.args.slice(1));
    let results: [Error | null, unknown][] | null;
    try {
      results = await multi.exec();
    } catch (e) {
      throw asBridgeError(e);
    }
    if (!results) throw new UpstashCommandError("EXECABORT Transaction discarded");
    return prepared.map((p, i) => {
      const [err, reply] = results[i];
      if (err) return { error: err.message };
      return { result: p.post ? p.post(reply) : reply };
    });
  }
}

/**
 * A reply in Upstash's JSON: with `Upstash-Encoding: base64` every string except the status "OK" is base64 (the
 * client decodes all strings but "OK"), otherwise UTF-8 text. Integers stay numbers, nil is null, arrays recurse.
 */
export function encodeReply(reply: unknown, base64: boolean): unknown {
  if (Buffer.isBuffer(reply)) {
    if (!base64) return reply.toString("utf8");
    return reply.length === 2 && reply.toString("latin1") === "OK" ? "OK" : reply.toString("base64");
  }
  if (typeof reply === "string") {
    if (!base64 || reply === "OK") return reply;
    return Buffer.from(reply, "utf8").toString("base64");
  }
  if (Array.isArray(reply)) return reply.map((r) => encodeReply(r, base64));
  if (reply instanceof Error) return reply.message;
  if (reply === undefined) return null;
  return reply;
}
