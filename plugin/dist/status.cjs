const __askLaterUrl = require('node:url').pathToFileURL(__filename).href;
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __esm = (fn, res) => function __init() {
  return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res;
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// src/store/http/agent-api-error.ts
var AgentApiError;
var init_agent_api_error = __esm({
  "src/store/http/agent-api-error.ts"() {
    "use strict";
    AgentApiError = class extends Error {
      constructor(code, message) {
        super(message);
        this.code = code;
      }
      code;
      name = "AgentApiError";
    };
  }
});

// src/store/http/project-refused-error.ts
var ProjectRefusedError;
var init_project_refused_error = __esm({
  "src/store/http/project-refused-error.ts"() {
    "use strict";
    ProjectRefusedError = class extends Error {
      name = "ProjectRefusedError";
    };
  }
});

// src/store/http/token-refused-error.ts
var TokenRefusedError;
var init_token_refused_error = __esm({
  "src/store/http/token-refused-error.ts"() {
    "use strict";
    TokenRefusedError = class extends Error {
      name = "TokenRefusedError";
    };
  }
});

// src/core/question.ts
function canTransition(from, to) {
  return TRANSITIONS[from].includes(to);
}
function optionValue(option) {
  return option.value ?? option.label;
}
function itemsOf(spec) {
  return spec.members ?? [spec];
}
function askInputOf(spec) {
  const { origin: _notAnArgument, askedBefore: _found, ...rest } = spec;
  if (rest.members === void 0) return { ...rest };
  const { members, isBlocking: _derived, ...common } = rest;
  return { ...common, questions: members };
}
function memberRef(id, member) {
  return `#${id}.${member + 1}`;
}
function platformName(platform) {
  return PLATFORM_NAMES[platform];
}
function placeOf(by) {
  return by.place === void 0 ? `on ${platformName(by.platform)}` : PLACE_PHRASES[by.place];
}
function placeAndUserOf(by) {
  const user = by.platform === "web" ? "" : ` (user ${by.userId.replace(/\s+/g, " ").trim()})`;
  return `${placeOf(by)}${user}`;
}
function selectionsOf(reply) {
  return "members" in reply ? reply.members : [reply];
}
var QUESTION_STATUSES, TRANSITIONS, ORIGIN_TOOLS, PLATFORMS, PLATFORM_NAMES, ANSWER_PLACES, PLACE_PHRASES, DELIVERY_PATHS, OTHER_LABEL;
var init_question = __esm({
  "src/core/question.ts"() {
    "use strict";
    QUESTION_STATUSES = ["pending", "answered", "delivered", "cancelled", "dismissed", "expired"];
    TRANSITIONS = {
      pending: ["answered", "cancelled", "dismissed", "expired"],
      answered: ["delivered"],
      delivered: [],
      cancelled: [],
      dismissed: [],
      expired: []
    };
    ORIGIN_TOOLS = ["AskUserQuestion", "ExitPlanMode"];
    PLATFORMS = ["slack", "discord", "telegram", "web"];
    PLATFORM_NAMES = {
      slack: "Slack",
      discord: "Discord",
      telegram: "Telegram",
      web: "the web inbox"
    };
    ANSWER_PLACES = ["terminal", "command-line"];
    PLACE_PHRASES = {
      terminal: "in the terminal",
      "command-line": "from the command line"
    };
    DELIVERY_PATHS = ["prompt", "tool-call", "wake", "tool-result"];
    OTHER_LABEL = "Other";
  }
});

// src/core/pause.ts
function pause(ms, signal) {
  return (0, import_promises.setTimeout)(Math.max(0, ms), void 0, signal ? { signal } : {}).then(
    () => void 0,
    () => void 0
  );
}
var import_promises;
var init_pause = __esm({
  "src/core/pause.ts"() {
    "use strict";
    import_promises = require("node:timers/promises");
  }
});

// src/store/store-unavailable-error.ts
var StoreUnavailableError;
var init_store_unavailable_error = __esm({
  "src/store/store-unavailable-error.ts"() {
    "use strict";
    StoreUnavailableError = class extends Error {
      name = "StoreUnavailableError";
      constructor(options) {
        super("The ask-later inbox (its store) is unreachable", options);
      }
    };
  }
});

// src/core/invalid-answer-error.ts
var InvalidAnswerError;
var init_invalid_answer_error = __esm({
  "src/core/invalid-answer-error.ts"() {
    "use strict";
    InvalidAnswerError = class extends Error {
      name = "InvalidAnswerError";
    };
  }
});

// src/store/http/agents-only-token-error.ts
var AgentsOnlyTokenError;
var init_agents_only_token_error = __esm({
  "src/store/http/agents-only-token-error.ts"() {
    "use strict";
    AgentsOnlyTokenError = class extends Error {
      name = "AgentsOnlyTokenError";
    };
  }
});

// src/store/http/protocol.ts
var AGENT_API_PATH, LONG_POLL_MAX_MS, AGENT_BODY_MAX_BYTES;
var init_protocol = __esm({
  "src/store/http/protocol.ts"() {
    "use strict";
    AGENT_API_PATH = "/agent/v1/";
    LONG_POLL_MAX_MS = 25e3;
    AGENT_BODY_MAX_BYTES = 256 * 1024;
  }
});

// src/store/http/replies.ts
function checkReply(operation, body) {
  if (!isObject(body)) throw new AgentApiError("bad-response", `serve's answer to ${operation} is not a JSON object`);
  for (const [field, check] of Object.entries(FIELDS[operation])) {
    if (!check(body[field])) {
      throw new AgentApiError("bad-response", `serve's answer to ${operation} has no valid \`${field}\``);
    }
  }
  return body;
}
var isObject, isString, isNumber, isBoolean, arrayOf, orNull, isQuestion, isCounts, isResult, isPage, isDecisionPage, isDraft, isViewCounts, isCountsEntry, isOutcome, isWirePage, FIELDS;
var init_replies = __esm({
  "src/store/http/replies.ts"() {
    "use strict";
    init_question();
    init_agent_api_error();
    isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
    isString = (value) => typeof value === "string";
    isNumber = (value) => typeof value === "number" && Number.isFinite(value);
    isBoolean = (value) => typeof value === "boolean";
    arrayOf = (check) => (value) => Array.isArray(value) && value.every(check);
    orNull = (check) => (value) => value === null || check(value);
    isQuestion = (value) => isObject(value) && isString(value.project) && isNumber(value.id) && QUESTION_STATUSES.includes(value.status);
    isCounts = (value) => isObject(value) && QUESTION_STATUSES.every((status) => {
      const entry = value[status];
      return isObject(entry) && isNumber(entry.blocking) && isNumber(entry.canWait);
    });
    isResult = (value) => isObject(value) && isString(value.kind);
    isPage = (value) => isObject(value) && arrayOf(isQuestion)(value.questions) && isNumber(value.remaining) && (value.next === void 0 || isString(value.next));
    isDecisionPage = (value) => isObject(value) && arrayOf((decision) => isQuestion(decision) && isObject(decision.answer))(value.decisions) && (value.next === void 0 || isString(value.next)) && (value.remaining === void 0 || isNumber(value.remaining));
    isDraft = (value) => isObject(value) && arrayOf(isString)(value.choices) && isBoolean(value.other);
    isViewCounts = (value) => isObject(value) && isNumber(value.blocking) && isNumber(value.canWait) && isNumber(value.closed);
    isCountsEntry = (value) => Array.isArray(value) && value.length === 2 && isString(value[0]) && isViewCounts(value[1]);
    isOutcome = (value) => isObject(value) && isString(value.kind) && (value.kind === "unknown" || (value.kind === "saved" ? isDraft(value.draft) : isQuestion(value.question)));
    isWirePage = (value) => isPage(value) && isObject(value) && (value.counts === void 0 || arrayOf(isCountsEntry)(value.counts));
    FIELDS = {
      park: { question: isQuestion },
      get: { question: orNull(isQuestion) },
      list: { questions: arrayOf(isQuestion) },
      "list-page": { page: isPage },
      decisions: { page: isDecisionPage },
      similar: {
        similar: arrayOf(
          arrayOf(
            (found) => isObject(found) && isNumber(found.score) && isQuestion(found.decision) && (found.member === void 0 || isNumber(found.member))
          )
        )
      },
      cancel: { result: isResult },
      claim: { claimId: isString, via: isString, questions: arrayOf(isQuestion), remaining: isNumber },
      confirm: { ids: arrayOf(isNumber) },
      release: {},
      waiting: { questions: arrayOf(isQuestion) },
      "mark-delivered": { result: isString },
      count: { counts: isCounts },
      "lease-acquire": { held: isBoolean },
      "lease-release": {},
      "lease-seize": {},
      watch: { mark: isString },
      changed: { changed: isBoolean, mark: isString },
      wait: { question: orNull(isQuestion) },
      ping: {},
      whoami: { name: isString, id: isString, patterns: arrayOf(isString), expiresAt: orNull(isNumber) },
      "inbox-projects": { projects: arrayOf(isString) },
      "inbox-project": { project: orNull(isString) },
      "inbox-question": { question: orNull(isQuestion) },
      "inbox-draft": { draft: orNull(isDraft) },
      "inbox-save-draft": { result: isOutcome },
      "inbox-answer": { result: isOutcome },
      "inbox-dismiss": { result: isOutcome },
      "inbox-page": { page: isWirePage },
      "inbox-counts": { counts: arrayOf(isCountsEntry) },
      "inbox-watch": { mark: isString },
      "inbox-changed": { changed: isBoolean, mark: isString }
    };
  }
});

// src/store/http/client.ts
function readBody(response) {
  return new Promise((resolve3, reject) => {
    const chunks = [];
    let size = 0;
    response.on("data", (chunk) => {
      size += chunk.length;
      if (size > RESPONSE_MAX_BYTES) response.destroy(new Error(`response over ${RESPONSE_MAX_BYTES} bytes`));
      else chunks.push(chunk);
    });
    response.on("end", () => resolve3(Buffer.concat(chunks).toString("utf8")));
    response.on("error", reject);
    response.on("aborted", () => reject(new Error("response aborted")));
  });
}
function parseJson(text) {
  try {
    const value = JSON.parse(text);
    if (value !== null && typeof value === "object") return value;
  } catch {
  }
  throw new AgentApiError("bad-response", "serve answered with something that is not a JSON object");
}
function failure(status, text) {
  let code;
  let message;
  try {
    const body = JSON.parse(text);
    if (typeof body.error?.code === "string") code = body.error.code.slice(0, 40);
    if (typeof body.error?.message === "string") message = body.error.message.slice(0, 300);
  } catch {
  }
  if (status === 401) return new TokenRefusedError(message ?? "serve refused the token (HTTP 401)");
  if (status === 403 && code === "agents-only")
    return new AgentsOnlyTokenError(message ?? "the token is for agents only");
  if (status === 422 && code === "invalid-answer") return new InvalidAnswerError(message ?? "serve refused the answer");
  if (status === 403 && code === "host-refused") return new AgentApiError(code, message ?? "serve refused the host");
  if (status === 403) return new ProjectRefusedError(message ?? "the token does not reach this project (HTTP 403)");
  if (status === 502 || status === 503 || status === 504 || code === "store-unavailable") {
    return new StoreUnavailableError({ cause: new AgentApiError(code ?? `HTTP ${status}`, `HTTP ${status}`) });
  }
  return new AgentApiError(code ?? `HTTP ${status}`, message ?? `serve answered HTTP ${status}`);
}
var RESPONSE_MAX_BYTES, AgentClient, CallTimeoutError, CallAbortedError, StaleSocketError;
var init_client = __esm({
  "src/store/http/client.ts"() {
    "use strict";
    init_invalid_answer_error();
    init_store_unavailable_error();
    init_agent_api_error();
    init_agents_only_token_error();
    init_project_refused_error();
    init_protocol();
    init_replies();
    init_token_refused_error();
    RESPONSE_MAX_BYTES = 64 * 1024 * 1024;
    AgentClient = class {
      #base;
      #authorization;
      #transport;
      #closed = false;
      #inFlight = /* @__PURE__ */ new Set();
      constructor(options) {
        const base = new URL(options.url);
        if (!base.pathname.endsWith("/")) base.pathname = `${base.pathname}/`;
        this.#base = base;
        this.#authorization = `Bearer ${options.token}`;
      }
      /** Call one operation. */
      async call(operation, body, options) {
        let reply;
        try {
          reply = await this.#post(operation, JSON.stringify(body), options, false);
        } catch (error) {
          if (!(error instanceof StaleSocketError)) throw error;
          reply = await this.#post(operation, JSON.stringify(body), options, true);
        }
        return checkReply(operation, reply);
      }
      close() {
        this.#closed = true;
        for (const request of this.#inFlight) request.destroy();
        void this.#transport?.then(({ agent }) => agent.destroy()).catch(() => void 0);
      }
      #open() {
        this.#transport ??= (this.#base.protocol === "https:" ? import("node:https") : import("node:http")).then(
          (module2) => {
            const transport = module2;
            return { transport, agent: new transport.Agent({ keepAlive: true }) };
          }
        );
        return this.#transport;
      }
      async #post(operation, payload, options, retried) {
        const { transport, agent } = await this.#open();
        if (this.#closed) throw new StoreUnavailableError({ cause: new Error("the client is closed") });
        if (options.signal?.aborted) throw new StoreUnavailableError({ cause: new CallAbortedError() });
        const url = new URL(`${AGENT_API_PATH.slice(1)}${operation}`, this.#base);
        return new Promise((resolve3, reject) => {
          let settled = false;
          const finish = (error, value) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            options.signal?.removeEventListener("abort", onAbort);
            this.#inFlight.delete(request);
            if (error === void 0) resolve3(value);
            else reject(error);
          };
          const request = transport.request(
            url,
            {
              method: "POST",
              agent,
              headers: {
                authorization: this.#authorization,
                "content-type": "application/json",
                "content-length": Buffer.byteLength(payload),
                accept: "application/json"
              }
            },
            (response) => {
              readBody(response).then(
                (text) => {
                  const status = response.statusCode ?? 0;
                  try {
                    finish(
                      status === 200 ? void 0 : failure(status, text),
                      status === 200 ? parseJson(text) : void 0
                    );
                  } catch (error) {
                    finish(error);
                  }
                },
                (error) => finish(new StoreUnavailableError({ cause: error }))
              );
            }
          );
          this.#inFlight.add(request);
          const timer = setTimeout(() => request.destroy(new CallTimeoutError()), options.timeoutMs);
          const onAbort = () => request.destroy(new CallAbortedError());
          options.signal?.addEventListener("abort", onAbort, { once: true });
          request.on("error", (error) => {
            if (!retried && request.reusedSocket && error.code === "ECONNRESET") finish(new StaleSocketError());
            else finish(new StoreUnavailableError({ cause: error }));
          });
          request.end(payload);
        });
      }
    };
    CallTimeoutError = class extends Error {
      name = "CallTimeoutError";
      code = "ETIMEDOUT";
    };
    CallAbortedError = class extends Error {
      name = "CallAbortedError";
      code = "ABORTED";
    };
    StaleSocketError = class extends Error {
      name = "StaleSocketError";
    };
  }
});

// src/store/http/serve-link.ts
var RETRY_FIRST_MS, RETRY_MAX_MS, LONG_POLL_MARGIN_MS, PROBE_EVERY_MS, PROBE_TIMEOUT_MS, ServeLink;
var init_serve_link = __esm({
  "src/store/http/serve-link.ts"() {
    "use strict";
    init_pause();
    init_store_unavailable_error();
    init_client();
    init_protocol();
    RETRY_FIRST_MS = 100;
    RETRY_MAX_MS = 2e3;
    LONG_POLL_MARGIN_MS = 5e3;
    PROBE_EVERY_MS = 250;
    PROBE_TIMEOUT_MS = 1e3;
    ServeLink = class {
      #client;
      #timeoutMs;
      #longPollMs;
      /** The last call found serve (or its store) away; the next one that answers clears it. */
      #lost = false;
      constructor(options) {
        this.#client = new AgentClient({ url: options.url, token: options.token });
        this.#timeoutMs = options.timeoutMs ?? 1e4;
        this.#longPollMs = Math.min(options.longPollMs ?? LONG_POLL_MAX_MS, LONG_POLL_MAX_MS);
      }
      /** One call, given the store's time-out. */
      call(operation, body) {
        return this.#track(this.#client.call(operation, body, { timeoutMs: this.#timeoutMs }));
      }
      /**
       * One long poll that reached serve, asking it to hold (`body(ms)`) at most until `deadline`; undefined when the
       * deadline came or `signal` aborted first. While serve does not answer, it tries again with back-off.
       */
      async longPoll(operation, body, deadline, signal) {
        let backoff = RETRY_FIRST_MS;
        for (; ; ) {
          const left = deadline - Date.now();
          if (signal?.aborted) return void 0;
          try {
            const ms = Math.max(0, Math.min(left, this.#longPollMs));
            return await this.#track(
              this.#client.call(operation, body(ms), { timeoutMs: ms + LONG_POLL_MARGIN_MS, signal })
            );
          } catch (error) {
            if (signal?.aborted) return void 0;
            if (!(error instanceof StoreUnavailableError)) throw error;
            if (deadline - Date.now() <= 0) return void 0;
            const step = Math.min(backoff, deadline - Date.now());
            if (await this.whenReady({ timeoutMs: step, ...signal ? { signal } : {} }) === "ready") {
              await pause(step, signal);
            }
            backoff = Math.min(backoff * 2, RETRY_MAX_MS);
          }
        }
      }
      /** Lost after a call found serve (or its store) away: then a `ping` every 250 ms until one answers. */
      async whenReady(options) {
        if (!this.#lost) return "ready";
        const deadline = Date.now() + options.timeoutMs;
        for (; ; ) {
          if (options.signal?.aborted) return "lost";
          const left = deadline - Date.now();
          if (left <= 0) return "lost";
          try {
            await this.#track(
              this.#client.call(
                "ping",
                {},
                { timeoutMs: Math.min(PROBE_TIMEOUT_MS, left), ...options.signal ? { signal: options.signal } : {} }
              )
            );
            return "reconnected";
          } catch {
            await pause(Math.min(PROBE_EVERY_MS, Math.max(0, deadline - Date.now())), options.signal);
          }
        }
      }
      close() {
        this.#client.close();
      }
      /** A call's outcome, remembering whether serve answered (for `whenReady`). */
      async #track(call) {
        try {
          const answer = await call;
          this.#lost = false;
          return answer;
        } catch (error) {
          if (error instanceof StoreUnavailableError) this.#lost = true;
          throw error;
        }
      }
    };
  }
});

// src/store/http/http-store.ts
var http_store_exports = {};
__export(http_store_exports, {
  HttpStore: () => HttpStore,
  openHttpStore: () => openHttpStore
});
async function openHttpStore(options) {
  return new HttpStore(options);
}
function wireClaim(claim) {
  return { claimId: claim.claimId, via: claim.via, ids: claim.questions.map((q) => q.id) };
}
var HttpStore;
var init_http_store = __esm({
  "src/store/http/http-store.ts"() {
    "use strict";
    init_question();
    init_serve_link();
    HttpStore = class {
      #link;
      constructor(options) {
        this.#link = new ServeLink(options);
      }
      async park(project, spec) {
        const origin = spec.origin === void 0 ? {} : { origin: spec.origin };
        const askedBefore = spec.askedBefore === void 0 ? {} : { askedBefore: spec.askedBefore };
        return (await this.#call("park", { project, spec: askInputOf(spec), ...origin, ...askedBefore })).question;
      }
      async get(project, id) {
        return (await this.#call("get", { project, id })).question ?? void 0;
      }
      async list(project, filter) {
        return (await this.#call("list", { project, ...filter ? { filter } : {} })).questions;
      }
      async similarDecisions(project, items, options = {}) {
        const compared = items.map((item) => ({
          question: item.question,
          options: item.options.map((option) => ({ label: option.label })),
          ...item.topic === void 0 ? {} : { topic: item.topic }
        }));
        return (await this.#call("similar", { project, items: compared, options })).similar;
      }
      async findDecisions(project, query) {
        return (await this.#call("decisions", { project, query })).page;
      }
      async listPage(project, query) {
        return (await this.#call("list-page", { project, query })).page;
      }
      async cancel(project, id) {
        return (await this.#call("cancel", { project, id })).result;
      }
      async claimUndelivered(project, options) {
        const reply = await this.#call("claim", { project, options });
        return { claimId: reply.claimId, via: reply.via, questions: reply.questions, remaining: reply.remaining };
      }
      async confirmClaim(project, claim, ids) {
        return (await this.#call("confirm", { project, claim: wireClaim(claim), ...ids ? { only: ids } : {} })).ids;
      }
      async releaseClaim(project, claim, ids) {
        await this.#call("release", { project, claim: wireClaim(claim), ...ids ? { only: ids } : {} });
      }
      async waitingOutcomes(project, options) {
        const blockingOnly = options?.blockingOnly;
        return (await this.#call("waiting", { project, ...blockingOnly !== void 0 ? { blockingOnly } : {} })).questions;
      }
      async markDelivered(project, id, via) {
        return (await this.#call("mark-delivered", { project, id, ...via ? { via } : {} })).result;
      }
      async countQuestions(project) {
        return (await this.#call("count", { project })).counts;
      }
      async acquireLease(name, owner, ms) {
        return (await this.#call("lease-acquire", { name, owner, ms })).held;
      }
      async releaseLease(name, owner) {
        await this.#call("lease-release", { name, owner });
      }
      async seizeLease(name, owner, ms) {
        await this.#call("lease-seize", { name, owner, ms });
      }
      async ping() {
        await this.#call("ping", {});
      }
      /** Who this store's token is (doctor). */
      whoami() {
        return this.#call("whoami", {});
      }
      async watch(project) {
        let mark = (await this.#call("watch", { project })).mark;
        const stop = new AbortController();
        return {
          changed: async ({ timeoutMs, signal }) => {
            const deadline = Date.now() + timeoutMs;
            const signals = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
            for (; ; ) {
              const reply = await this.#link.longPoll(
                "changed",
                (ms) => ({ project, mark, timeoutMs: ms }),
                deadline,
                signals
              );
              if (reply === void 0) return false;
              mark = reply.mark;
              if (reply.changed) return true;
              if (Date.now() >= deadline || signals.aborted) return false;
            }
          },
          close: async () => stop.abort()
        };
      }
      async waitWhilePending(project, id, options) {
        const deadline = Date.now() + options.timeoutMs;
        let last;
        let known = false;
        for (; ; ) {
          const reply = await this.#link.longPoll(
            "wait",
            (ms) => ({ project, id, timeoutMs: ms }),
            deadline,
            options.signal
          );
          if (reply === void 0) {
            if (known) return last;
            return this.get(project, id);
          }
          known = true;
          last = reply.question ?? void 0;
          if (last?.status !== "pending" || Date.now() >= deadline || options.signal?.aborted) return last;
        }
      }
      /** Lost after a call found serve (or its store) away: then a `ping` every 250 ms until one answers. */
      whenReady(options) {
        return this.#link.whenReady(options);
      }
      async close() {
        this.#link.close();
      }
      #call(operation, body) {
        return this.#link.call(operation, body);
      }
    };
  }
});

// src/core/limits.ts
var QUESTION_MAX, OPTION_LABEL_MAX, OPTION_DESCRIPTION_MAX, OPTIONS_MIN, OPTIONS_MAX, CONTEXT_MAX, IMPACT_MAX, TICKET_MAX, NOTES_MAX, DISPLAY_NAME_MAX, EXPIRES_MIN_SECONDS, EXPIRES_MAX_SECONDS, WAIT_MAX_SECONDS, OPTION_VALUE_MAX, SET_MEMBERS_MIN, SET_MEMBERS_MAX, TOPIC_MAX, MEMBER_CONTEXT_MAX, MEMBER_IMPACT_MAX, SET_TEXT_MAX, LIMITS;
var init_limits = __esm({
  "src/core/limits.ts"() {
    "use strict";
    QUESTION_MAX = 250;
    OPTION_LABEL_MAX = 73;
    OPTION_DESCRIPTION_MAX = 75;
    OPTIONS_MIN = 1;
    OPTIONS_MAX = 6;
    CONTEXT_MAX = 3e3;
    IMPACT_MAX = 1e3;
    TICKET_MAX = 64;
    NOTES_MAX = 3e3;
    DISPLAY_NAME_MAX = 80;
    EXPIRES_MIN_SECONDS = 60;
    EXPIRES_MAX_SECONDS = 30 * 24 * 60 * 60;
    WAIT_MAX_SECONDS = 600;
    OPTION_VALUE_MAX = 64;
    SET_MEMBERS_MIN = 2;
    SET_MEMBERS_MAX = 4;
    TOPIC_MAX = 30;
    MEMBER_CONTEXT_MAX = 1e3;
    MEMBER_IMPACT_MAX = 1e3;
    SET_TEXT_MAX = 5e3;
    LIMITS = Object.freeze({
      QUESTION_MAX,
      OPTION_LABEL_MAX,
      OPTION_DESCRIPTION_MAX,
      OPTIONS_MIN,
      OPTIONS_MAX,
      CONTEXT_MAX,
      IMPACT_MAX,
      TICKET_MAX,
      NOTES_MAX,
      DISPLAY_NAME_MAX,
      EXPIRES_MIN_SECONDS,
      EXPIRES_MAX_SECONDS,
      WAIT_MAX_SECONDS,
      OPTION_VALUE_MAX,
      SET_MEMBERS_MIN,
      SET_MEMBERS_MAX,
      TOPIC_MAX,
      MEMBER_CONTEXT_MAX,
      MEMBER_IMPACT_MAX,
      SET_TEXT_MAX
    });
  }
});

// src/core/answer.ts
function answerReadiness(question, selection) {
  const picks = selection.choices.length + (selection.other ? 1 : 0);
  if (picks === 0 || !question.multiSelect && picks > 1) {
    return "pick-one";
  }
  if (selection.other && isBlank(selection.notes)) {
    return "needs-note";
  }
  return "ready";
}
function checkAnswer(question, selection) {
  const labels = question.options.map((option) => option.label);
  const seen = /* @__PURE__ */ new Set();
  for (const choice of selection.choices) {
    if (!labels.includes(choice)) {
      return refuse(`Expected each choice to be one of the options ${quoteAll(labels)}, got ${quote(choice)}`);
    }
    if (seen.has(choice)) {
      return refuse(`Expected each choice once, got ${quote(choice)} more than once`);
    }
    seen.add(choice);
  }
  const picks = [...selection.choices.map(quote), ...selection.other ? [OTHER_LABEL] : []];
  if (!question.multiSelect && picks.length > 1) {
    return refuse(
      `Expected one pick (an option or ${OTHER_LABEL}) on a single-select question, got ${picks.length}: ${picks.join(", ")}`
    );
  }
  const notes = selection.notes?.trim() ?? "";
  if (notes.length > NOTES_MAX) {
    return refuse(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  const choiceNotes = checkChoiceNotes(question, labels, seen, selection.choiceNotes ?? []);
  if (typeof choiceNotes === "string") return refuse(choiceNotes);
  switch (answerReadiness(question, selection)) {
    case "pick-one":
      return refuse(`Expected a choice (one of ${quoteAll(labels)}) or ${OTHER_LABEL} with notes, got nothing`);
    case "needs-note":
      return refuse(`Expected notes with ${OTHER_LABEL} saying what the answer is, got none`);
    case "ready":
      break;
  }
  const normalised = {
    choices: labels.filter((label) => seen.has(label)),
    other: selection.other,
    ...notes === "" ? {} : { notes },
    ...choiceNotes.length === 0 ? {} : { choiceNotes }
  };
  return { ok: true, selection: normalised };
}
function checkChoiceNotes(question, labels, picked, choiceNotes) {
  if (choiceNotes.length === 0) return [];
  if (!question.multiSelect) {
    return "Expected notes per option only on a multi-select question (a single-select answer has one set of notes)";
  }
  const byChoice = /* @__PURE__ */ new Map();
  for (const { choice, notes } of choiceNotes) {
    if (!labels.includes(choice)) {
      return `Expected notes per option for the options ${quoteAll(labels)}, got notes for ${quote(choice)}`;
    }
    if (byChoice.has(choice)) return `Expected notes for ${quote(choice)} once, got them more than once`;
    const trimmed = notes.trim();
    if (trimmed.length > NOTES_MAX) {
      return `Expected the notes for ${quote(choice)} to be at most ${NOTES_MAX} characters, got ${trimmed.length}`;
    }
    byChoice.set(choice, trimmed);
  }
  return labels.flatMap((choice) => {
    const notes = byChoice.get(choice);
    return picked.has(choice) && notes ? [{ choice, notes }] : [];
  });
}
function describeSelection(question, selection) {
  const order = new Map(question.options.map((option, index) => [option.label, index]));
  const rank2 = (label) => order.get(label) ?? order.size;
  const choices = [...selection.choices].sort((a, b) => rank2(a) - rank2(b));
  const parts = selection.other ? [...choices, OTHER_LABEL] : choices;
  return parts.length === 0 ? "nothing picked" : parts.join(", ");
}
function isBlank(text) {
  return text === void 0 || text.trim() === "";
}
function refuse(reason) {
  return { ok: false, reason };
}
function quote(text) {
  return JSON.stringify(text);
}
function quoteAll(labels) {
  return labels.map(quote).join(", ");
}
var init_answer = __esm({
  "src/core/answer.ts"() {
    "use strict";
    init_limits();
    init_question();
  }
});

// src/core/delivery-note.ts
function deliveryEntriesBudget(budget = DELIVERY_NOTE_BUDGET) {
  const longestFooter = SEPARATOR.length + Math.max(...NEXT_DELIVERY.map((next) => footer(Number.MAX_SAFE_INTEGER, next).length));
  return Math.max(0, budget - HEADER.length - longestFooter);
}
function renderDeliveryEntry(q) {
  const answer = q.answer;
  if ((q.status === "answered" || q.status === "delivered") && answer !== void 0) {
    const selections = selectionsOf(answer);
    const by = `By ${who(answer.by)} at ${isoTime(answer.at)}`;
    if (q.members === void 0) {
      return [
        `### #${q.id} answered`,
        ...originLines(q),
        ...questionLines(q),
        ...answerLines(q, selections[0]),
        by
      ].join("\n");
    }
    return [
      `### #${q.id} answered: a set of ${q.members.length} questions, answered together`,
      ...originLines(q),
      ...ticketLines(q),
      ...q.members.flatMap((member, index) => [
        memberHeading(q.id, index, member),
        `Question: ${oneLine(member.question)}`,
        ...answerLines(member, selections[index])
      ]),
      by
    ].join("\n");
  }
  if (q.status === "dismissed") {
    const by = q.closure?.by === void 0 ? "" : ` by ${who(q.closure.by)}`;
    return [
      `### #${q.id} dismissed unanswered${by}${closedAt(q)}`,
      ...originLines(q),
      ...questionLines(q),
      UNANSWERED_ADVICE
    ].join("\n");
  }
  if (q.status === "expired") {
    return [
      `### #${q.id} expired unanswered${closedAt(q)}`,
      ...originLines(q),
      ...questionLines(q),
      UNANSWERED_ADVICE
    ].join("\n");
  }
  return [`### #${q.id} ${q.status}`, ...questionLines(q)].join("\n");
}
function answerLines(item, selection) {
  if (selection === void 0) return ["Answer: nothing was recorded"];
  const values = selection.choices.flatMap((choice) => {
    const option = item.options.find((candidate) => candidate.label === choice);
    return option?.value === void 0 ? [] : [`${oneLine(choice)} = ${oneLine(optionValue(option))}`];
  });
  const notes = selection.notes?.trim() ?? "";
  return [
    `Answer: ${oneLine(describeSelection(item, selection))}`,
    ...values.length === 0 ? [] : [`Values: ${values.join("; ")}`],
    ...(selection.choiceNotes ?? []).flatMap(({ choice, notes: optionNotes }) => [
      `- Notes on ${oneLine(choice)}:`,
      ...quoteLines(optionNotes).map((line) => `  ${line}`)
    ]),
    ...notes === "" ? [] : ["Notes:", ...quoteLines(notes)]
  ];
}
function memberHeading(id, index, member) {
  return `#### ${memberRef(id, index)} ${oneLine(member.topic)}${member.isBlocking ? " (blocking)" : ""}`;
}
function deliveryEntryLength(q) {
  return SEPARATOR.length + renderDeliveryEntry(q).length;
}
function footer(waiting, next) {
  const how = next === "prompt" ? "with the next prompt" : "when you call collect_answers again";
  return waiting === 1 ? `1 more answer waits; it comes ${how}.` : `${waiting} more answers wait; they come ${how}.`;
}
function originLines(q) {
  switch (q.origin?.tool) {
    case void 0:
      return [];
    case "AskUserQuestion":
      return q.members === void 0 ? [
        `You asked this with AskUserQuestion${q.origin.header === void 0 ? "" : ` (header "${oneLine(q.origin.header)}")`}; ask-later parked it for the person.`
      ] : ["You asked these with AskUserQuestion (each topic is your header); ask-later parked them for the person."];
    case "ExitPlanMode":
      return [
        "Your plan, which you asked to approve with ExitPlanMode; ask-later parked it for the person. If the answer is Approve, call ExitPlanMode again and it goes through."
      ];
  }
}
function ticketLines(q) {
  return q.ticket === void 0 ? [] : [`Ticket: ${oneLine(q.ticket)}`];
}
function questionLines(q) {
  if (q.members === void 0) return [...ticketLines(q), `Question: ${oneLine(q.question)}`];
  return [
    ...ticketLines(q),
    ...q.members.map(
      (member, index) => `Question ${memberRef(q.id, index)} (${oneLine(member.topic)}): ${oneLine(member.question)}`
    )
  ];
}
function who(by) {
  const name = oneLine(by.displayName);
  const where = placeAndUserOf(by);
  return name === "" ? where : `${name} ${where}`;
}
function closedAt(q) {
  return q.closure === void 0 ? "" : ` at ${isoTime(q.closure.at)}`;
}
function isoTime(at) {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? "an unknown time" : date.toISOString();
}
function oneLine(text) {
  return text.replace(LINE_BREAKS_AND_CONTROLS, " ").trim();
}
function quoteLines(notes) {
  return notes.split(LINE_BREAK).map((line) => {
    const clean = line.replace(CONTROL, (c) => c === "	" ? c : " ").trimEnd();
    return clean === "" ? ">" : `> ${clean}`;
  });
}
var DELIVERY_NOTE_BUDGET, HEADER, SEPARATOR, UNANSWERED_ADVICE, NEXT_DELIVERY, LINE_BREAK, LINE_BREAKS_AND_CONTROLS, CONTROL;
var init_delivery_note = __esm({
  "src/core/delivery-note.ts"() {
    "use strict";
    init_answer();
    init_question();
    DELIVERY_NOTE_BUDGET = 9e3;
    HEADER = [
      "## ask-later: outcomes of the questions you parked",
      "",
      `This note comes from ask-later, not from the person typing the prompt. The question texts are your own: you parked them with the ask_later tool (or asked them with a tool of your own, which ask-later parked). The answers and the notes (each notes line quoted with "> ") are the person's words. Each outcome is reported once.`
    ].join("\n");
    SEPARATOR = "\n\n";
    UNANSWERED_ADVICE = "Nobody answered it: decide it yourself, or park it again with ask_later if a person must decide.";
    NEXT_DELIVERY = ["prompt", "call"];
    LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;
    LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
    CONTROL = new RegExp("\\p{Cc}", "gu");
  }
});

// src/core/reply.ts
function checkReply2(question, reply) {
  const items = itemsOf(question);
  if (question.members === void 0) {
    if ("members" in reply) {
      return { ok: false, reason: `Expected one selection for #${question.id}, got one per member of a set` };
    }
    const checked = checkAnswer(question, reply);
    return checked.ok ? { ok: true, reply: checked.selection } : checked;
  }
  if (!("members" in reply)) {
    return { ok: false, reason: `Expected a selection for each of the ${items.length} questions of #${question.id}` };
  }
  if (reply.members.length !== items.length) {
    return {
      ok: false,
      reason: `Expected ${items.length} selections for the set #${question.id}, got ${reply.members.length}`
    };
  }
  const members = [];
  for (const [index, member] of question.members.entries()) {
    const checked = checkAnswer(member, reply.members[index] ?? { choices: [], other: false });
    if (!checked.ok)
      return { ok: false, reason: `${memberRef(question.id, index)} (${member.topic}): ${checked.reason}` };
    members.push(checked.selection);
  }
  return { ok: true, reply: { members } };
}
function measuredAnswerOf(question, reply, meta) {
  const checked = checkReply2(question, reply);
  if (!checked.ok) throw new InvalidAnswerError(checked.reason);
  const answer = Object.assign({}, checked.reply, meta);
  const length = deliveryEntryLength(Object.assign({}, question, { status: "answered", answer }));
  const budget = ENTRIES_BUDGET;
  if (length > budget) {
    throw new InvalidAnswerError(
      `Expected the answer to #${question.id} to fit in one delivery note to the agent (${budget} characters), got ${length}: shorten the notes by ${length - budget} characters`
    );
  }
  return { answer, entryLength: length };
}
function describeReply(question, reply) {
  const selections = selectionsOf(reply);
  if (question.members === void 0) {
    return describeSelection(question, selections[0] ?? { choices: [], other: false });
  }
  return question.members.map(
    (member, index) => `${member.topic}: ${describeSelection(member, selections[index] ?? { choices: [], other: false })}`
  ).join(" · ");
}
var ENTRIES_BUDGET;
var init_reply = __esm({
  "src/core/reply.ts"() {
    "use strict";
    init_answer();
    init_delivery_note();
    init_invalid_answer_error();
    init_question();
    ENTRIES_BUDGET = deliveryEntriesBudget();
  }
});

// src/core/question-ref.ts
function projectTag(project) {
  return (0, import_node_crypto.createHash)("sha256").update(project).digest("base64url").slice(0, 16);
}
var import_node_crypto;
var init_question_ref = __esm({
  "src/core/question-ref.ts"() {
    "use strict";
    import_node_crypto = require("node:crypto");
  }
});

// src/store/paging.ts
function pad(value, digits) {
  return String(Math.max(0, Math.trunc(value))).padStart(digits, "0");
}
function pendingKey(isBlocking, createdAt, id) {
  return `${isBlocking ? "0" : "1"}${pad(createdAt, TIME_DIGITS)}${pad(id, ID_DIGITS)}`;
}
function closedKey(closedAt2, id) {
  return `${pad(closedAt2, TIME_DIGITS)}${pad(id, ID_DIGITS)}`;
}
function closedSinceKey(since) {
  return pad(since, TIME_DIGITS);
}
function closedAtOf(question) {
  if (question.status === "pending") return void 0;
  return question.answer?.at ?? question.closure?.at ?? question.deliveredAt ?? question.createdAt;
}
function viewKey(view, question) {
  if (view === "pending") {
    return question.status === "pending" ? pendingKey(question.isBlocking, question.createdAt, question.id) : void 0;
  }
  if (view === "answered" && question.status !== "answered" && question.status !== "delivered") return void 0;
  const at = closedAtOf(question);
  return at === void 0 ? void 0 : closedKey(at, question.id);
}
function parseCursor(view, text) {
  const match = text === void 0 ? null : CURSOR.exec(text);
  const key = match?.[1];
  const tag = match?.[2];
  if (key === void 0 || tag === void 0) return void 0;
  const length = view === "pending" ? 1 + TIME_DIGITS + ID_DIGITS : TIME_DIGITS + ID_DIGITS;
  if (key.length !== length || view === "pending" && key[0] !== "0" && key[0] !== "1") return void 0;
  return { key, tag };
}
function formatCursor(cursor) {
  return `${cursor.key}.${cursor.tag}`;
}
function comesBefore(view, a, b) {
  const ascending = a.key < b.key || a.key === b.key && a.tag < b.tag;
  const same = a.key === b.key && a.tag === b.tag;
  if (same) return false;
  return view === "pending" ? ascending : !ascending;
}
function sortInView(view, entries) {
  return entries.sort((a, b) => comesBefore(view, a, b) ? -1 : comesBefore(view, b, a) ? 1 : 0);
}
function cursorOf(view, question) {
  const key = viewKey(view, question);
  return key === void 0 ? void 0 : { key, tag: projectTag(question.project) };
}
function viewStatuses(view) {
  if (view === "pending") return ["pending"];
  if (view === "answered") return ["answered", "delivered"];
  return QUESTION_STATUSES.filter((status) => status !== "pending");
}
function parseListCursor(text) {
  const match = text === void 0 ? null : /^([01])\.(\d{1,12})$/.exec(text);
  if (!match?.[1] || !match[2]) return void 0;
  return { blockingFirst: match[1] === "0" ? 0 : 1, id: Number(match[2]) };
}
function formatListCursor(question) {
  return `${question.isBlocking ? "0" : "1"}.${question.id}`;
}
var TIME_DIGITS, ID_DIGITS, CURSOR;
var init_paging = __esm({
  "src/store/paging.ts"() {
    "use strict";
    init_question();
    init_question_ref();
    TIME_DIGITS = 15;
    ID_DIGITS = 12;
    CURSOR = /^(\d{27,28})\.([A-Za-z0-9_-]{16})$/;
  }
});

// src/store/trail.ts
async function trailPage(store, projects, query) {
  const words = searchWords(query.search);
  const since = query.since === void 0 ? {} : { since: query.since };
  if (words.length === 0) {
    const page = await store.pageAcross(projects, {
      view: "answered",
      limit: query.limit,
      ...since,
      ...query.after === void 0 ? {} : { after: query.after }
    });
    const decisions2 = page.questions.filter(isDecision);
    return page.next === void 0 ? { decisions: decisions2, remaining: 0 } : { decisions: decisions2, next: page.next, remaining: page.remaining };
  }
  const found = [];
  let after = query.after;
  for (; ; ) {
    const batch = await store.pageAcross(projects, {
      view: "answered",
      limit: SEARCH_BATCH,
      ...since,
      ...after === void 0 ? {} : { after }
    });
    for (const question of batch.questions) {
      if (isDecision(question) && decisionMatches(question, query.search)) found.push(question);
    }
    if (found.length > query.limit || batch.next === void 0) break;
    after = batch.next;
  }
  const decisions = found.slice(0, query.limit);
  const last = decisions.at(-1);
  const cursor = found.length > query.limit && last !== void 0 ? cursorOf("answered", last) : void 0;
  return cursor === void 0 ? { decisions } : { decisions, next: formatCursor(cursor) };
}
function isDecision(question) {
  return question.answer !== void 0;
}
function searchWords(search) {
  return (search ?? "").toLowerCase().split(/\s+/u).filter((word) => word !== "");
}
function decisionMatches(decision, search) {
  const words = searchWords(search);
  if (words.length === 0) return true;
  const { answer } = decision;
  const haystack = [
    ...itemsOf(decision).map((item) => item.question),
    ...(decision.members ?? []).map((member) => member.topic),
    decision.context,
    decision.ticket ?? "",
    describeReply(decision, answer),
    ...selectionsOf(answer).flatMap((selection) => [
      selection.notes ?? "",
      ...(selection.choiceNotes ?? []).map((entry) => entry.notes)
    ])
  ].join("\n").toLowerCase();
  return words.every((word) => haystack.includes(word));
}
var SEARCH_BATCH;
var init_trail = __esm({
  "src/store/trail.ts"() {
    "use strict";
    init_question();
    init_reply();
    init_paging();
    SEARCH_BATCH = 200;
  }
});

// src/store/redis/unroutable-command-error.ts
var UnroutableCommandError;
var init_unroutable_command_error = __esm({
  "src/store/redis/unroutable-command-error.ts"() {
    "use strict";
    UnroutableCommandError = class extends Error {
      name = "UnroutableCommandError";
      constructor(command, got = "a command the table does not list") {
        super(`Expected ${JSON.stringify(command)} with keys of one hash slot, listed in command-keys.ts, got ${got}`);
      }
    };
  }
});

// src/store/redis/command-keys.ts
function commandKeys(args) {
  const name = (args[0] ?? "").toUpperCase();
  if (FIRST_ARGUMENT.has(name)) return args.slice(1, 2);
  if (KEYLESS.has(name)) return [];
  switch (name) {
    case "EVAL":
    case "EVALSHA": {
      const count = Number(args[2]);
      if (!(count > 0)) throw new UnroutableCommandError(name, "a script declaring no key");
      return args.slice(3, 3 + count);
    }
    // XGROUP CREATE <key> …, XINFO GROUPS <key>
    case "XGROUP":
    case "XINFO":
      return args.slice(2, 3);
    // … STREAMS <key>… <id>…: as many ids as keys.
    case "XREAD":
    case "XREADGROUP": {
      const streams = args.findIndex((arg, i) => i > 0 && arg.toUpperCase() === "STREAMS");
      if (streams < 0) break;
      const rest = args.slice(streams + 1);
      return rest.slice(0, rest.length / 2);
    }
  }
  throw new UnroutableCommandError(name);
}
var FIRST_ARGUMENT, KEYLESS;
var init_command_keys = __esm({
  "src/store/redis/command-keys.ts"() {
    "use strict";
    init_unroutable_command_error();
    FIRST_ARGUMENT = /* @__PURE__ */ new Set([
      "DEL",
      "EXISTS",
      "GET",
      "HDEL",
      "HGET",
      "HGETALL",
      "HLEN",
      "HMGET",
      "HSCAN",
      "HSET",
      "HSETNX",
      "LPOP",
      "LRANGE",
      "PEXPIRE",
      "SET",
      "SMEMBERS",
      "TYPE",
      "XACK",
      "XADD",
      "XAUTOCLAIM",
      "XLEN",
      "XPENDING",
      "XRANGE",
      "XREVRANGE",
      "ZCARD",
      "ZLEXCOUNT",
      "ZRANGE",
      "ZRANGEBYSCORE",
      "ZSCORE"
    ]);
    KEYLESS = /* @__PURE__ */ new Set(["ASKING", "CLUSTER", "INFO", "PING", "PUBLISH"]);
  }
});

// src/store/redis/connection.ts
function askThen(connection, args) {
  const asked = connection.sendCommand(["ASKING"]);
  asked.catch(() => void 0);
  return connection.sendCommand(args);
}
var init_connection = __esm({
  "src/store/redis/connection.ts"() {
    "use strict";
  }
});

// src/store/redis/slot.ts
function crc16(bytes, start, end) {
  let crc = 0;
  for (let i = start; i < end; i++) crc = crc << 8 & 65535 ^ (TABLE[(crc >> 8 ^ (bytes[i] ?? 0)) & 255] ?? 0);
  return crc;
}
function keySlot(key) {
  const bytes = Buffer.from(key, "utf8");
  const open = bytes.indexOf(123);
  if (open >= 0) {
    const close = bytes.indexOf(125, open + 1);
    if (close > open + 1) return crc16(bytes, open + 1, close) % SLOT_COUNT;
  }
  return crc16(bytes, 0, bytes.length) % SLOT_COUNT;
}
var SLOT_COUNT, TABLE;
var init_slot = __esm({
  "src/store/redis/slot.ts"() {
    "use strict";
    SLOT_COUNT = 16384;
    TABLE = (() => {
      const table = new Uint16Array(256);
      for (let byte = 0; byte < 256; byte++) {
        let crc = byte << 8;
        for (let bit = 0; bit < 8; bit++) crc = crc & 32768 ? (crc << 1 ^ 4129) & 65535 : crc << 1 & 65535;
        table[byte] = crc;
      }
      return table;
    })();
  }
});

// src/store/redis/slot-moving-error.ts
var SlotMovingError;
var init_slot_moving_error = __esm({
  "src/store/redis/slot-moving-error.ts"() {
    "use strict";
    SlotMovingError = class extends Error {
      name = "SlotMovingError";
      constructor(what, attempts, options) {
        super(`Expected the Redis Cluster slot of ${what} to settle, got "try again" ${attempts} times`, options);
      }
    };
  }
});

// src/store/redis/cluster-connection.ts
function backoffMs(attempt) {
  return Math.min(10 * 2 ** (attempt - 1), 250);
}
function redirectOf(error) {
  if (!(error instanceof Error)) return void 0;
  const message = error.message;
  const redirect = /^(MOVED|ASK) (\d+) (\S+)/.exec(message);
  if (redirect) {
    const kind = redirect[1] === "MOVED" ? "moved" : "ask";
    return { kind, slot: Number(redirect[2]), address: String(redirect[3]) };
  }
  if (message.startsWith("TRYAGAIN")) return { kind: "retry", refresh: false };
  if (message.startsWith("CLUSTERDOWN")) return { kind: "retry", refresh: true };
  if (message.includes("Script attempted to access a non local key")) return { kind: "retry", refresh: false };
  return void 0;
}
function addressOf(host, port) {
  return `${host}:${port}`;
}
function nodeUrl(seedUrl, address) {
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon);
  const url = new URL(seedUrl);
  url.hostname = host.includes(":") ? `[${host}]` : host;
  url.port = address.slice(colon + 1);
  return url.toString();
}
function notSent(error) {
  if (!(error instanceof Error)) return false;
  const names = ["ClientOfflineError", "ClientClosedError"];
  return names.includes(error.name) || names.includes(error.constructor.name);
}
function slotOf(args) {
  const keys = commandKeys(args);
  const first = keys[0];
  if (first === void 0) return void 0;
  const slot = keySlot(first);
  for (const key of keys) {
    const other = keySlot(key);
    if (other !== slot) throw new UnroutableCommandError(String(args[0]), `keys in hash slots ${slot} and ${other}`);
  }
  return slot;
}
async function connectRedis(url, connect) {
  const seed = await connect(url);
  let reply;
  try {
    reply = await seed.sendCommand(["CLUSTER", "SLOTS"]);
  } catch (error) {
    if (seed.isOpen) return seed;
    seed.close();
    throw error;
  }
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, "");
  if (db !== "" && db !== "0") {
    seed.close();
    throw new Error(`Expected REDIS_URL to name database 0 (a Redis Cluster has no other), got /${db}`);
  }
  const map = new SlotMap(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  map.load(reply, host);
  return new ClusterConnection(map, connect, {
    address: addressOf(host, Number(parsed.port || 6379)),
    connection: seed
  });
}
var MAX_RETRIES, MAX_REDIRECTS, sleep, SlotMap, ClusterConnection, ClusterClosed;
var init_cluster_connection = __esm({
  "src/store/redis/cluster-connection.ts"() {
    "use strict";
    init_command_keys();
    init_connection();
    init_slot();
    init_slot_moving_error();
    init_unroutable_command_error();
    MAX_RETRIES = 16;
    MAX_REDIRECTS = 5;
    sleep = (ms) => new Promise((resolve3) => setTimeout(resolve3, ms));
    SlotMap = class {
      constructor(seedUrl) {
        this.seedUrl = seedUrl;
      }
      seedUrl;
      #owner = new Array(SLOT_COUNT);
      #masters = [];
      #refreshing;
      get masters() {
        return this.#masters;
      }
      /** Read a `CLUSTER SLOTS` reply; `askedHost` stands in for a node that does not know its own address. */
      load(reply, askedHost) {
        if (!Array.isArray(reply)) throw new Error(`Expected CLUSTER SLOTS to answer a list, got ${typeof reply}`);
        const owner = new Array(SLOT_COUNT);
        const masters = /* @__PURE__ */ new Set();
        for (const range of reply) {
          const [start, end, master] = range;
          const host = String(master?.[0] ?? "");
          const address = addressOf(host === "" || host === "?" ? askedHost : host, Number(master?.[1]));
          masters.add(address);
          for (let slot = Number(start); slot <= Number(end); slot++) owner[slot] = address;
        }
        for (let slot = 0; slot < SLOT_COUNT; slot++) this.#owner[slot] = owner[slot];
        this.#masters = [...masters];
      }
      assign(slot, address) {
        this.#owner[slot] = address;
        if (!this.#masters.includes(address)) this.#masters = [...this.#masters, address];
      }
      ownerOf(slot) {
        return this.#owner[slot];
      }
      /** Some master, for keyless commands. */
      any() {
        const first = this.#masters[0];
        if (first === void 0) throw new Error("Expected a Redis Cluster with at least one master, got none");
        return first;
      }
      urlOf(address) {
        return nodeUrl(this.seedUrl, address);
      }
      /**
       * Read the map again through `ask`, one node after another until one answers: `first` before the others (the
       * node that just said MOVED knows the news), never `skip` (the node that is away). Concurrent calls share one read.
       */
      refresh(ask, options = {}) {
        this.#refreshing ??= (async () => {
          const order = [...options.first ? [options.first] : [], ...this.#masters.filter((a) => a !== options.first)];
          try {
            for (const address of order.filter((a) => a !== options.skip)) {
              try {
                this.load(await ask(address), address.slice(0, address.lastIndexOf(":")));
                return;
              } catch {
              }
            }
          } finally {
            this.#refreshing = void 0;
          }
        })();
        return this.#refreshing;
      }
    };
    ClusterConnection = class _ClusterConnection {
      isCluster = true;
      #map;
      #connect;
      #nodes = /* @__PURE__ */ new Map();
      /** The node connections opened so far, each with the way to stop listening to its reconnects. */
      #live = /* @__PURE__ */ new Map();
      #readyListeners = /* @__PURE__ */ new Set();
      #open = true;
      constructor(map, connect, seed) {
        this.#map = map;
        this.#connect = connect;
        if (seed) {
          if (map.masters.includes(seed.address)) {
            this.#nodes.set(seed.address, Promise.resolve(seed.connection));
            this.#follow(seed.connection);
          } else {
            seed.connection.close();
          }
        }
      }
      get isOpen() {
        return this.#open;
      }
      /** Every node connection it holds takes commands (none held yet: nothing is lost). */
      get isReady() {
        if (!this.#open) return false;
        for (const connection of this.#live.keys()) if (connection.isOpen && !connection.isReady) return false;
        return true;
      }
      /** Called when any of its node connections is ready again. */
      onReady(listener) {
        this.#readyListeners.add(listener);
        return () => this.#readyListeners.delete(listener);
      }
      /** Hear a node connection's reconnects (and forget it once it is dropped). */
      #follow(connection) {
        if (!this.#open || this.#live.has(connection)) return;
        this.#live.set(
          connection,
          connection.onReady(() => {
            for (const listener of [...this.#readyListeners]) listener();
          })
        );
      }
      #forget(connection) {
        this.#live.get(connection)?.();
        this.#live.delete(connection);
      }
      /** This router's connection to one node, opened on first use (again after the minimal client lost it). */
      async #node(address) {
        const known = this.#nodes.get(address);
        if (known) {
          const connection = await known.catch(() => void 0);
          if (connection?.isOpen) return connection;
          if (connection) this.#forget(connection);
          if (this.#nodes.get(address) === known) this.#nodes.delete(address);
        }
        if (!this.#open) throw new ClusterClosed();
        const opening = this.#connect(this.#map.urlOf(address));
        this.#nodes.set(address, opening);
        opening.then(
          (connection) => this.#follow(connection),
          () => {
            if (this.#nodes.get(address) === opening) this.#nodes.delete(address);
          }
        );
        return opening;
      }
      async #refresh(options = {}) {
        await this.#map.refresh(async (address) => (await this.#node(address)).sendCommand(["CLUSTER", "SLOTS"]), options);
        for (const [address, connection] of this.#nodes) {
          if (this.#map.masters.includes(address)) continue;
          this.#nodes.delete(address);
          void connection.then((c) => {
            this.#forget(c);
            c.close();
          }).catch(() => void 0);
        }
      }
      #ownerOf(slot) {
        return (slot === void 0 ? void 0 : this.#map.ownerOf(slot)) ?? this.#map.any();
      }
      async sendCommand(args) {
        if (!this.#open) throw new ClusterClosed();
        const slot = slotOf(args);
        let address = this.#ownerOf(slot);
        let asking = false;
        let retries = 0;
        let redirects = 0;
        for (; ; ) {
          let node;
          try {
            node = await this.#node(address);
          } catch (error) {
            const away = address;
            await this.#refresh({ skip: away });
            address = this.#ownerOf(slot);
            asking = false;
            if (address === away || ++redirects > MAX_REDIRECTS) throw error;
            continue;
          }
          try {
            if (!asking) return await node.sendCommand(args);
            return await (node.sendAsking ? node.sendAsking(args) : askThen(node, args));
          } catch (error) {
            const redirect = redirectOf(error);
            if (!redirect) {
              if (notSent(error) && ++redirects <= MAX_REDIRECTS) {
                await this.#refresh({ skip: address });
                if (this.#ownerOf(slot) !== address) {
                  address = this.#ownerOf(slot);
                  asking = false;
                  continue;
                }
              }
              throw error;
            }
            if (redirect.kind === "retry") {
              if (++retries >= MAX_RETRIES) throw new SlotMovingError(`slot ${slot ?? "-"}`, retries, { cause: error });
              redirects = 0;
              await sleep(backoffMs(retries));
              if (redirect.refresh) await this.#refresh().catch(() => void 0);
              address = this.#ownerOf(slot);
              asking = false;
              continue;
            }
            if (++redirects > MAX_REDIRECTS) {
              throw new SlotMovingError(`slot ${slot ?? "-"}`, redirects, { cause: error });
            }
            if (redirect.kind === "moved") {
              this.#map.assign(redirect.slot, redirect.address);
              void this.#refresh({ first: redirect.address }).catch(() => void 0);
              address = redirect.address;
              asking = false;
            } else {
              address = redirect.address;
              asking = true;
            }
          }
        }
      }
      async duplicate() {
        return new _ClusterConnection(this.#map, this.#connect);
      }
      /** On any master: a cluster hands every PUBLISH to every node. */
      async subscribe(channel, listener) {
        return (await this.#node(this.#map.any())).subscribe(channel, listener);
      }
      close() {
        this.#open = false;
        for (const connection of this.#nodes.values()) void connection.then((c) => c.close()).catch(() => void 0);
        this.#nodes.clear();
        for (const stop of this.#live.values()) stop();
        this.#live.clear();
        this.#readyListeners.clear();
      }
    };
    ClusterClosed = class extends Error {
      name = "ClientClosedError";
      constructor() {
        super("The cluster connection is closed");
      }
    };
  }
});

// src/store/redis/bounded-cache.ts
var BoundedCache;
var init_bounded_cache = __esm({
  "src/store/redis/bounded-cache.ts"() {
    "use strict";
    BoundedCache = class {
      #half;
      #young = /* @__PURE__ */ new Map();
      #old = /* @__PURE__ */ new Map();
      constructor(max) {
        this.#half = Math.max(1, Math.floor(max / 2));
      }
      get(key) {
        return this.#young.get(key) ?? this.#old.get(key);
      }
      has(key) {
        return this.#young.has(key) || this.#old.has(key);
      }
      set(key, value) {
        if (!this.#young.has(key) && this.#young.size >= this.#half) {
          this.#old = this.#young;
          this.#young = /* @__PURE__ */ new Map();
        }
        this.#young.set(key, value);
      }
      get size() {
        return this.#young.size + this.#old.size;
      }
    };
  }
});

// src/store/redis/keys.ts
function globalKeys(prefix) {
  return {
    projects: `${prefix}:projects`,
    hints: `${prefix}:hints`,
    lease: (name) => `${prefix}:lease:${name}`,
    failedGroups: `${prefix}:{failed}:groups`,
    failed: (group) => `${prefix}:{failed}:${group}`,
    replay: (group) => `${prefix}:{failed}:${group}:replay`,
    surfaceFaults: `${prefix}:{failed}:surface-faults`,
    tokens: `${prefix}:{tokens}`
  };
}
var ProjectKeys;
var init_keys = __esm({
  "src/store/redis/keys.ts"() {
    "use strict";
    init_question_ref();
    ProjectKeys = class {
      constructor(prefix, project) {
        this.project = project;
        this.tag = projectTag(project);
        this.base = `${prefix}:{${this.tag}}:`;
      }
      project;
      /** Prefix of every key of this project, e.g. `al:{Zx1…}:`. Scripts build per-question keys from it. */
      base;
      tag;
      get meta() {
        return `${this.base}meta`;
      }
      question(id) {
        return `${this.base}q:${id}`;
      }
      drafts(id) {
        return `${this.base}d:${id}`;
      }
      status(status) {
        return `${this.base}s:${status}`;
      }
      get outbox() {
        return `${this.base}outbox`;
      }
      get expiry() {
        return `${this.base}expiry`;
      }
      get done() {
        return `${this.base}done`;
      }
      get events() {
        return `${this.base}events`;
      }
      /** The pending view's index (see store/paging.ts). */
      get inboxIndex() {
        return `${this.base}ix:inbox`;
      }
      /** The closed view's index. */
      get closedIndex() {
        return `${this.base}ix:closed`;
      }
      /** The answered view's index. */
      get answeredIndex() {
        return `${this.base}ix:answered`;
      }
      /** The index of decisions (`lua/includes/decided-index.lua`). */
      get decisions() {
        return `${this.base}ix:decided`;
      }
      /** Decisions answered since the project's last "already decided" check, waiting to join its index (answer-11). */
      get decisionsQueue() {
        return `${this.base}ix:decided-queue`;
      }
    };
  }
});

// src/store/redis/readiness.ts
var RECHECK_MS, PING_MS, StoreConnections;
var init_readiness = __esm({
  "src/store/redis/readiness.ts"() {
    "use strict";
    RECHECK_MS = 250;
    PING_MS = 1e3;
    StoreConnections = class {
      #main;
      #duplicates = /* @__PURE__ */ new Set();
      constructor(main) {
        this.#main = main;
      }
      /** Follow a duplicate from now on (dropped once closed). */
      add(connection) {
        for (const known of this.#duplicates) if (!known.isOpen) this.#duplicates.delete(known);
        this.#duplicates.add(connection);
        return connection;
      }
      #open() {
        return [this.#main, ...this.#duplicates].filter((connection) => connection.isOpen);
      }
      #lost() {
        return this.#open().some((connection) => !connection.isReady);
      }
      /** Whether the main connection answers a PING within `ms`. */
      async #answers(ms) {
        let timer;
        const late = new Promise((resolve3) => {
          timer = setTimeout(() => resolve3(false), ms);
        });
        const ping = this.#main.sendCommand(["PING"]).then(
          () => true,
          () => false
        );
        try {
          return await Promise.race([ping, late]);
        } finally {
          clearTimeout(timer);
        }
      }
      /** See `Store.whenReady`. */
      async whenReady(options) {
        if (options.signal?.aborted) return "lost";
        if (!this.#lost() && await this.#answers(Math.max(1, Math.min(options.timeoutMs, PING_MS)))) return "ready";
        return new Promise((resolve3) => {
          let seenLost = this.#lost();
          const stops = this.#open().map((connection) => connection.onReady(() => check()));
          const finish = (readiness) => {
            clearTimeout(timer);
            clearInterval(recheck);
            options.signal?.removeEventListener("abort", aborted);
            for (const stop of stops) stop();
            resolve3(readiness);
          };
          const check = () => {
            if (this.#lost()) seenLost = true;
            else if (seenLost) finish("reconnected");
          };
          let pinging = false;
          const again = () => {
            check();
            if (seenLost || pinging || this.#lost()) return;
            pinging = true;
            void this.#answers(PING_MS).then((answers) => {
              pinging = false;
              if (answers && !this.#lost()) finish("reconnected");
            });
          };
          const aborted = () => finish("lost");
          const timer = setTimeout(aborted, Math.max(0, options.timeoutMs));
          const recheck = setInterval(again, RECHECK_MS);
          options.signal?.addEventListener("abort", aborted, { once: true });
          if (options.signal?.aborted) aborted();
        });
      }
    };
  }
});

// src/store/corrupt-record-error.ts
var CorruptRecordError;
var init_corrupt_record_error = __esm({
  "src/store/corrupt-record-error.ts"() {
    "use strict";
    CorruptRecordError = class extends Error {
      constructor(record2, problem, options) {
        super(`Stored question ${record2} is unreadable: ${problem}`, options);
        this.record = record2;
        this.problem = problem;
      }
      record;
      problem;
      name = "CorruptRecordError";
    };
  }
});

// src/store/redis/record.ts
function messageField(platform, channel) {
  return `${MESSAGE_FIELD_PREFIX}${platform}:${channel}`;
}
function describe(value) {
  if (value === void 0) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return value.length <= 20 ? JSON.stringify(value) : `a string of ${value.length}`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}
function readItem(read, item, path, version) {
  const rawOptions = item.options;
  if (!Array.isArray(rawOptions) || rawOptions.length === 0)
    read.fail(`${path}.options`, "a non-empty list", rawOptions);
  const options = rawOptions.map((option, index) => {
    const at = `${path}.options.${index}`;
    if (version === "1") {
      if (typeof option !== "string") read.fail(at, "a string", option);
      return { label: option };
    }
    const object = read.object(option, at);
    const label = read.string(object, "label", at);
    const value = version >= "3" ? read.optionalString(object, "value", at) : void 0;
    const description = read.optionalString(object, "description", at);
    const parsed = { label };
    if (value !== void 0) parsed.value = value;
    if (description !== void 0) parsed.description = description;
    return parsed;
  });
  const result = {
    question: read.string(item, "question", path),
    options,
    multiSelect: version === "1" ? false : read.boolean(item, "multiSelect", path),
    isBlocking: read.boolean(item, "isBlocking", path)
  };
  if (item.recommended !== void 0) {
    result.recommended = version >= "3" ? read.strings(item, "recommended", path) : [read.string(item, "recommended", path)];
  }
  return result;
}
function readSpec(read, text, version) {
  const spec = read.json(text, "spec");
  const common = {
    context: read.string(spec, "context", "spec"),
    impact: read.string(spec, "impact", "spec"),
    isBlocking: read.boolean(spec, "isBlocking", "spec")
  };
  const ticket = read.optionalString(spec, "ticket", "spec");
  if (ticket !== void 0) common.ticket = ticket;
  const expiresInSeconds = read.optionalNumber(spec, "expiresInSeconds", "spec");
  if (expiresInSeconds !== void 0) common.expiresInSeconds = expiresInSeconds;
  if (version >= "4" && spec.origin !== void 0) common.origin = readOrigin(read, spec.origin);
  if (version >= "4" && spec.askedBefore !== void 0) common.askedBefore = readAskedBefore(read, spec.askedBefore);
  if (version < "3" || spec.members === void 0) return Object.assign(common, readItem(read, spec, "spec", version));
  const rawMembers = spec.members;
  if (!Array.isArray(rawMembers) || rawMembers.length === 0) read.fail("spec.members", "a non-empty list", rawMembers);
  const members = rawMembers.map((raw, index) => {
    const path = `spec.members.${index}`;
    const object = read.object(raw, path);
    const member = {
      topic: read.string(object, "topic", path),
      ...readItem(read, object, path, version)
    };
    const context = read.optionalString(object, "context", path);
    if (context !== void 0) member.context = context;
    const impact = read.optionalString(object, "impact", path);
    if (impact !== void 0) member.impact = impact;
    return member;
  });
  return Object.assign(common, { members });
}
function readOrigin(read, value) {
  const object = read.object(value, "spec.origin");
  const origin = { tool: read.oneOf(object.tool, ORIGIN_TOOLS, "spec.origin.tool") };
  const header = read.optionalString(object, "header", "spec.origin");
  if (header !== void 0) origin.header = header;
  const plan = read.optionalString(object, "plan", "spec.origin");
  if (plan !== void 0) origin.plan = plan;
  return origin;
}
function readAskedBefore(read, value) {
  if (!Array.isArray(value)) read.fail("spec.askedBefore", "a list", value);
  return value.map((entry, index) => {
    const path = `spec.askedBefore.${index}`;
    const object = read.object(entry, path);
    const member = read.optionalNumber(object, "member", path);
    return {
      id: read.number(object, "id", path),
      ...member === void 0 ? {} : { member },
      question: read.string(object, "question", path),
      answer: read.string(object, "answer", path),
      by: read.responder(object.by, `${path}.by`),
      at: read.number(object, "at", path)
    };
  });
}
function specRecord(spec) {
  if (spec.origin !== void 0 || spec.askedBefore !== void 0) return { version: 4, json: JSON.stringify(spec) };
  if (spec.members !== void 0 || (spec.recommended ?? []).length > 1 || spec.options.some((o) => o.value)) {
    return { version: 3, json: JSON.stringify(spec) };
  }
  const v2 = {};
  for (const [key, value] of Object.entries(spec)) if (key !== "recommended") v2[key] = value;
  if (spec.recommended?.[0] !== void 0) v2.recommended = spec.recommended[0];
  return { version: 2, json: JSON.stringify(v2) };
}
function readSelection(read, selection, path) {
  const choices = read.strings(selection, "choices", path);
  const other = read.boolean(selection, "other", path);
  const notes = read.optionalString(selection, "notes", path);
  const result = { choices, other };
  if (notes !== void 0) result.notes = notes;
  if (selection.choiceNotes !== void 0)
    result.choiceNotes = readChoiceNotes(read, selection.choiceNotes, `${path}.choiceNotes`);
  return result;
}
function readChoiceNotes(read, value, path) {
  if (!Array.isArray(value)) read.fail(path, "a list of {choice, notes}", value);
  return value.map((entry, index) => {
    const object = read.object(entry, `${path}.${index}`);
    return {
      choice: read.string(object, "choice", `${path}.${index}`),
      notes: read.string(object, "notes", `${path}.${index}`)
    };
  });
}
function readAnswer(read, text) {
  const answer = read.json(text, "answer");
  if ("members" in answer) {
    const raw = answer.members;
    if (!Array.isArray(raw)) read.fail("answer.members", "a list of selections", raw);
    const members = raw.map(
      (member, index) => readSelection(read, read.object(member, `answer.members.${index}`), `answer.members.${index}`)
    );
    return { members, by: read.responder(answer.by, "answer.by"), at: read.number(answer, "at", "answer") };
  }
  if ("choices" in answer) {
    const selection = readSelection(read, answer, "answer");
    return Object.assign(selection, {
      by: read.responder(answer.by, "answer.by"),
      at: read.number(answer, "at", "answer")
    });
  }
  const notes = read.optionalString(answer, "notes", "answer");
  const choice = answer.choice === null ? null : read.string(answer, "choice", "answer");
  const by = {
    platform: read.oneOf(answer.platform, PLATFORMS, "answer.platform"),
    userId: read.string(answer, "userId", "answer"),
    displayName: read.string(answer, "userName", "answer")
  };
  const at = read.number(answer, "at", "answer");
  const base = { choices: choice === null ? [] : [choice], other: choice === null, by, at };
  return notes === void 0 ? base : Object.assign(base, { notes });
}
function readClosure(read, text) {
  const closure = read.json(text, "closure");
  const at = read.number(closure, "at", "closure");
  return closure.by === void 0 ? { at } : { at, by: read.responder(closure.by, "closure.by") };
}
function messagesFromHash(hash, record2) {
  const messages = [];
  for (const field in hash) {
    if (!field.startsWith(MESSAGE_FIELD_PREFIX)) continue;
    const rest = field.slice(MESSAGE_FIELD_PREFIX.length);
    const colon = rest.indexOf(":");
    const platform = rest.slice(0, colon);
    if (colon < 0 || !isPlatform(platform)) {
      throw new CorruptRecordError(record2, `\`${field}\`: expected msg:<platform>:<channel>`);
    }
    messages.push({ platform, channel: rest.slice(colon + 1), messageId: hash[field] ?? "" });
  }
  return messages;
}
function isPlatform(value) {
  return PLATFORMS.includes(value);
}
function questionFromHash(hash, where, specs) {
  const early = new Reader(where);
  const version = early.oneOf(hash.v, ["1", "2", "3", "4"], "v");
  const project = hash.project;
  if (project === void 0) early.fail("project", "a string", project);
  const id = early.wholeNumber(hash, "id");
  const read = new Reader(`${project}#${id}`);
  const status = read.oneOf(hash.status, QUESTION_STATUSES, "status");
  const createdAt = read.wholeNumber(hash, "createdAt");
  const specText = hash.spec;
  if (specText === void 0) read.fail("spec", "a string", specText);
  let spec = specs?.get(read.record, version, specText);
  if (spec === void 0) {
    spec = readSpec(read, specText, version);
    specs?.set(read.record, version, specText, spec);
  }
  const question = Object.assign({}, spec);
  question.project = project;
  question.id = id;
  question.status = status;
  question.createdAt = createdAt;
  question.messages = messagesFromHash(hash, read.record);
  if (hash.expiresAt !== void 0) question.expiresAt = read.wholeNumber(hash, "expiresAt");
  if (hash.answer !== void 0) question.answer = readAnswer(read, hash.answer);
  if (hash.closure !== void 0) question.closure = readClosure(read, hash.closure);
  if (hash.deliveredAt !== void 0) question.deliveredAt = read.wholeNumber(hash, "deliveredAt");
  if (hash.deliveredVia !== void 0) {
    question.deliveredVia = read.oneOf(hash.deliveredVia, DELIVERY_PATHS, "deliveredVia");
  }
  if (hash.reminders !== void 0) question.reminders = read.wholeNumber(hash, "reminders");
  if (hash.remindedAt !== void 0) question.remindedAt = read.wholeNumber(hash, "remindedAt");
  return question;
}
function hashFromScript(reply, where) {
  if (typeof reply !== "string") return hashFromFlat(reply);
  let flat;
  try {
    flat = JSON.parse(reply);
  } catch {
    flat = void 0;
  }
  if (flat !== null && typeof flat === "object" && !Array.isArray(flat) && Object.keys(flat).length === 0) return {};
  if (!Array.isArray(flat) || flat.some((item) => typeof item !== "string")) {
    throw new CorruptRecordError(where, "expected the record as a JSON list of its fields and values");
  }
  return hashFromFlat(flat);
}
function hashFromFlat(reply) {
  if (!Array.isArray(reply)) return { ...reply };
  const hash = {};
  for (let i = 0; i + 1 < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}
var MESSAGE_FIELD_PREFIX, Reader, ParsedSpecs;
var init_record = __esm({
  "src/store/redis/record.ts"() {
    "use strict";
    init_question();
    init_corrupt_record_error();
    init_bounded_cache();
    MESSAGE_FIELD_PREFIX = "msg:";
    Reader = class {
      constructor(record2) {
        this.record = record2;
      }
      record;
      fail(path, expected, got) {
        throw new CorruptRecordError(this.record, `\`${path}\`: expected ${expected}, got ${describe(got)}`);
      }
      json(text, path) {
        let value;
        try {
          value = JSON.parse(text);
        } catch (error) {
          throw new CorruptRecordError(this.record, `\`${path}\`: expected JSON`, { cause: error });
        }
        return this.object(value, path);
      }
      object(value, path) {
        if (value === null || typeof value !== "object" || Array.isArray(value)) this.fail(path, "an object", value);
        return value;
      }
      string(object, key, path) {
        const value = object[key];
        if (typeof value !== "string") this.fail(`${path}.${key}`, "a string", value);
        return value;
      }
      optionalString(object, key, path) {
        return object[key] === void 0 ? void 0 : this.string(object, key, path);
      }
      boolean(object, key, path) {
        const value = object[key];
        if (typeof value !== "boolean") this.fail(`${path}.${key}`, "true or false", value);
        return value;
      }
      number(object, key, path) {
        const value = object[key];
        if (typeof value !== "number" || !Number.isFinite(value)) this.fail(`${path}.${key}`, "a number", value);
        return value;
      }
      optionalNumber(object, key, path) {
        return object[key] === void 0 ? void 0 : this.number(object, key, path);
      }
      strings(object, key, path) {
        const value = object[key];
        if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
          this.fail(`${path}.${key}`, "a list of strings", value);
        }
        return value;
      }
      oneOf(value, allowed, path) {
        if (typeof value !== "string" || !allowed.includes(value)) {
          this.fail(path, `one of ${allowed.join(", ")}`, value);
        }
        return value;
      }
      wholeNumber(hash, key) {
        const value = hash[key];
        if (value === void 0 || !/^\d+$/.test(value)) this.fail(key, "a whole number", value);
        return Number(value);
      }
      responder(value, path) {
        const object = this.object(value, path);
        return {
          platform: this.oneOf(object.platform, PLATFORMS, `${path}.platform`),
          userId: this.string(object, "userId", path),
          displayName: this.string(object, "displayName", path),
          ...object.place === void 0 ? {} : { place: this.oneOf(object.place, ANSWER_PLACES, `${path}.place`) }
        };
      }
    };
    ParsedSpecs = class {
      constructor(max) {
        this.max = max;
        this.#entries = new BoundedCache(max);
      }
      max;
      #entries;
      get(record2, v, text) {
        const entry = this.#entries.get(record2);
        return entry !== void 0 && entry.v === v && entry.text === text ? entry.spec : void 0;
      }
      set(record2, v, text, spec) {
        this.#entries.set(record2, { v, text, spec });
      }
    };
  }
});

// src/store/redis/resp-connection.ts
var resp_connection_exports = {};
__export(resp_connection_exports, {
  RedisErrorReply: () => RedisErrorReply,
  connectResp: () => connectResp
});
function wholeNumber(buffer, from, to) {
  let at = from;
  const negative = buffer[at] === 45;
  if (negative) at++;
  let value = 0;
  for (; at < to; at++) {
    const digit = (buffer[at] ?? 0) - 48;
    if (digit < 0 || digit > 9) throw new ConnectionLost("expected a number in a RESP reply");
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}
function encode(args) {
  let text = `*${args.length}\r
`;
  for (const arg of args) text += `$${Buffer.byteLength(arg, "utf8")}\r
${arg}\r
`;
  return text;
}
async function connectResp(url, options) {
  const parsed = new URL(url);
  const tls = parsed.protocol === "rediss:";
  const host = parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
  const port = Number(parsed.port || 6379);
  const socket = tls ? (await import("node:tls")).connect({ host, port, ...(0, import_node_net.isIP)(host) ? {} : { servername: host } }) : (0, import_node_net.connect)({ host, port });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      socket.destroy();
      reject(new ConnectTimeout(`no connection within ${options.connectTimeoutMs} ms`));
    }, options.connectTimeoutMs);
  });
  const handshake = async () => {
    await new Promise((resolve3, reject) => {
      socket.once(tls ? "secureConnect" : "connect", () => {
        socket.removeAllListeners("error");
        resolve3();
      });
      socket.once("error", reject);
    });
    socket.setNoDelay(true);
    const connection = new RespConnection(socket, url, options);
    const password = decodeURIComponent(parsed.password);
    const username = decodeURIComponent(parsed.username);
    if (password) await connection.sendCommand(username ? ["AUTH", username, password] : ["AUTH", password]);
    const db = parsed.pathname.replace(/^\//, "");
    if (db && db !== "0") await connection.sendCommand(["SELECT", db]);
    return connection;
  };
  try {
    return await Promise.race([handshake(), timeout]);
  } catch (error) {
    socket.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
var import_node_net, RedisErrorReply, ConnectionLost, ConnectTimeout, ReplyParser, RespConnection;
var init_resp_connection = __esm({
  "src/store/redis/resp-connection.ts"() {
    "use strict";
    import_node_net = require("node:net");
    RedisErrorReply = class extends Error {
      name = "ErrorReply";
    };
    ConnectionLost = class extends Error {
      name = "SocketClosedUnexpectedlyError";
    };
    ConnectTimeout = class extends Error {
      name = "ConnectionTimeoutError";
    };
    ReplyParser = class {
      constructor(onReply) {
        this.onReply = onReply;
      }
      onReply;
      #buffer = Buffer.alloc(0);
      #offset = 0;
      #open = [];
      /** Read what `chunk` completes; throws on bytes that are not RESP2 (the connection is then unusable). */
      push(chunk) {
        const left = this.#buffer.length - this.#offset;
        this.#buffer = left === 0 ? chunk : Buffer.concat([this.#buffer.subarray(this.#offset), chunk]);
        this.#offset = 0;
        const buffer = this.#buffer;
        for (; ; ) {
          const start = this.#offset;
          const lineEnd = buffer.indexOf(13, start);
          if (lineEnd < 0 || lineEnd + 1 >= buffer.length) break;
          const type = buffer[start];
          const next = lineEnd + 2;
          let value;
          if (type === 36) {
            const length = wholeNumber(buffer, start + 1, lineEnd);
            if (length < 0) value = null;
            else if (buffer.length < next + length + 2) break;
            else {
              value = buffer.toString("utf8", next, next + length);
              this.#offset = next + length + 2;
              this.#add(value);
              continue;
            }
          } else if (type === 42) {
            const count = wholeNumber(buffer, start + 1, lineEnd);
            this.#offset = next;
            if (count > 0) this.#open.push({ items: [], missing: count });
            else this.#add(count < 0 ? null : []);
            continue;
          } else if (type === 58) value = wholeNumber(buffer, start + 1, lineEnd);
          else if (type === 43) value = buffer.toString("utf8", start + 1, lineEnd);
          else if (type === 45) value = new RedisErrorReply(buffer.toString("utf8", start + 1, lineEnd));
          else throw new ConnectionLost(`unexpected RESP type byte ${String(type)}`);
          this.#offset = next;
          this.#add(value);
        }
      }
      /** One element read: into the array being filled (closing those it completes), else a whole reply. */
      #add(value) {
        let done = value;
        for (; ; ) {
          const open = this.#open.at(-1);
          if (open === void 0) {
            this.onReply(done);
            return;
          }
          open.items.push(done);
          if (--open.missing > 0) return;
          this.#open.pop();
          done = open.items;
        }
      }
    };
    RespConnection = class {
      constructor(socket, url, options) {
        this.socket = socket;
        this.url = url;
        this.options = options;
        socket.on("data", (chunk) => this.#receive(chunk));
        socket.on("error", (error) => this.#fail(error));
        socket.on("close", () => {
          this.#fail(new ConnectionLost("connection closed"));
          options.onClose?.();
        });
      }
      socket;
      url;
      options;
      isCluster = false;
      #parser = new ReplyParser((reply) => this.#reply(reply));
      /** Set once the connection subscribed: `message` pushes go here, not to a pending command. */
      #onPush;
      /** Commands sent and not yet answered, oldest at `#head`. */
      #pending = [];
      #head = 0;
      /** Commands given since the last write: written together once the current tick's work is done. */
      #unwritten = [];
      #open = true;
      get isOpen() {
        return this.#open;
      }
      /** Ready while open: it never reconnects (a lost connection stays closed). */
      get isReady() {
        return this.#open;
      }
      onReady(_listener) {
        return () => void 0;
      }
      #receive(chunk) {
        try {
          this.#parser.push(chunk);
        } catch (error) {
          this.#fail(error);
          this.socket.destroy();
        }
      }
      #reply(reply) {
        if (this.#onPush && Array.isArray(reply) && reply[0] === "message") {
          this.#onPush(String(reply[2]));
          return;
        }
        const waiter = this.#pending[this.#head];
        if (waiter === void 0) return;
        this.#pending[this.#head++] = void 0;
        if (this.#head === this.#pending.length) {
          this.#pending = [];
          this.#head = 0;
        } else if (this.#head >= 1024 && this.#head * 2 >= this.#pending.length) {
          this.#pending = this.#pending.slice(this.#head);
          this.#head = 0;
        }
        if (reply instanceof RedisErrorReply) waiter.reject(reply);
        else waiter.resolve(reply);
      }
      #fail(error) {
        this.#open = false;
        const pending = this.#pending.slice(this.#head);
        this.#pending = [];
        this.#head = 0;
        this.#unwritten = [];
        for (const waiter of pending) waiter.reject(error);
      }
      sendCommand(args) {
        if (!this.#open) return Promise.reject(new ConnectionLost("connection closed"));
        return new Promise((resolve3, reject) => {
          this.#pending.push({ resolve: resolve3, reject });
          if (this.#unwritten.push(encode(args)) === 1) process.nextTick(() => this.#flush());
        });
      }
      /** Write what was given meanwhile as one chunk: one system call for all the commands of a tick. */
      #flush() {
        const unwritten = this.#unwritten;
        this.#unwritten = [];
        if (unwritten.length > 0 && this.#open) this.socket.write(unwritten.join(""));
      }
      duplicate() {
        return connectResp(this.url, { connectTimeoutMs: this.options.connectTimeoutMs });
      }
      async subscribeOnly(channel, onMessage) {
        this.#onPush = onMessage;
        await this.sendCommand(["SUBSCRIBE", channel]);
      }
      /** No reconnection here either: the subscription reports `isOpen` false once its connection is gone. */
      async subscribe(channel, listener) {
        const connection = await connectResp(this.url, { connectTimeoutMs: this.options.connectTimeoutMs });
        try {
          await connection.subscribeOnly(channel, (message) => listener.onMessage(message));
        } catch (error) {
          connection.close();
          throw error;
        }
        listener.onReady?.();
        return {
          get isOpen() {
            return connection.isOpen;
          },
          close: () => connection.close()
        };
      }
      close() {
        this.#open = false;
        this.socket.destroy();
      }
    };
  }
});

// src/store/redis/lua-includes.ts
function isPlainPath(path) {
  return /^[a-z0-9][a-z0-9/_-]*$/i.test(path) && !path.split("/").includes("..");
}
function resolveIncludes(name, source, read) {
  const included = /* @__PURE__ */ new Set();
  const expand = (text, chain) => text.replace(INCLUDE, (_line, path) => {
    if (!isPlainPath(path)) throw new Error(`${name}.lua: @include "${path}" is not a path under lua/`);
    if (chain.includes(path))
      throw new Error(`${name}.lua: @include "${path}" includes itself (${chain.join(" → ")})`);
    if (included.has(path)) return `-- (${path} is included above)`;
    included.add(path);
    let body;
    try {
      body = read(path);
    } catch (error) {
      throw new Error(`${name}.lua: @include "${path}" cannot be read`, { cause: error });
    }
    return `-- ${path}.lua
${expand(body, [...chain, path]).trimEnd()}`;
  });
  return expand(source, []);
}
var INCLUDE;
var init_lua_includes = __esm({
  "src/store/redis/lua-includes.ts"() {
    "use strict";
    INCLUDE = /^---\s*@include\s+"([^"]+)"\s*$/gm;
  }
});

// src/store/redis/scripts.ts
function readLua(path) {
  return (0, import_node_fs2.readFileSync)(new URL(`./lua/${path}.lua`, __askLaterUrl), "utf8");
}
function load(file) {
  let loaded;
  const get = () => {
    if (!loaded) {
      const source = resolveIncludes(file, readLua(file), readLua);
      loaded = { source, sha: (0, import_node_crypto2.createHash)("sha1").update(source).digest("hex") };
    }
    return loaded;
  };
  return {
    name: file,
    numberOfKeys: Number(file.slice(file.lastIndexOf("-") + 1)),
    get source() {
      return get().source;
    },
    get sha() {
      return get().sha;
    }
  };
}
var import_node_crypto2, import_node_fs2, scripts, INDEX_VERSION, TransitionCode, DraftCode, ExpireCode, RemindCode, DeliverCode, SLOT_MOVING, PARK_TAG_COLLISION;
var init_scripts = __esm({
  "src/store/redis/scripts.ts"() {
    "use strict";
    import_node_crypto2 = require("node:crypto");
    import_node_fs2 = require("node:fs");
    init_lua_includes();
    scripts = {
      park: load("park-5"),
      answer: load("answer-11"),
      close: load("close-10"),
      expire: load("expire-9"),
      draft: load("draft-2"),
      recordMessage: load("record-message-1"),
      claim: load("claim-1"),
      waiting: load("waiting-1"),
      confirm: load("confirm-5"),
      release: load("release-1"),
      deliver: load("deliver-6"),
      purge: load("purge-9"),
      indexDecisions: load("index-decisions-1"),
      decidedStats: load("decided-stats-2"),
      views: load("views-10"),
      viewPage: load("view-page-10"),
      listPage: load("list-page-6"),
      lease: load("lease-1"),
      releaseLease: load("release-lease-1"),
      recordFailure: load("record-failure-2"),
      replayFailed: load("replay-failed-2"),
      remind: load("remind-2"),
      count: load("count-6"),
      createToken: load("create-token-1"),
      revokeToken: load("revoke-token-1")
    };
    INDEX_VERSION = 1;
    TransitionCode = {
      unknown: 0,
      done: 1,
      alreadyAnswered: 2,
      notPending: 3,
      dueToExpire: 4
    };
    DraftCode = { unknown: 0, saved: 1, notPending: 2, unreadable: 3 };
    ExpireCode = { unknown: 0, expired: 1, notDue: 2, notPending: 3 };
    RemindCode = { unknown: 0, reminded: 1, already: 2, notPending: 3 };
    DeliverCode = { notWaiting: 0, delivered: 1, leased: 2 };
    SLOT_MOVING = -1;
    PARK_TAG_COLLISION = -1;
  }
});

// src/store/redis/context.ts
function isConnectionError(error) {
  if (!(error instanceof Error)) return false;
  const names = [
    "ClientClosedError",
    "ClientOfflineError",
    "SocketClosedUnexpectedlyError",
    "ConnectionTimeoutError",
    // A connection of its own (a tail, a consumer) that could not be made: its first connect gives up at once.
    "ReconnectStrategyError",
    "SlotMovingError"
  ];
  if (names.includes(error.name) || names.includes(error.constructor.name)) return true;
  if (error instanceof RedisErrorReply && /^(LOADING|MASTERDOWN) /.test(error.message)) return true;
  const code = error.code;
  return typeof code === "string" && ["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH"].includes(code);
}
function toStoreError(error) {
  if (error instanceof StoreUnavailableError) return error;
  return isConnectionError(error) ? new StoreUnavailableError({ cause: error }) : error;
}
var CACHE_MAX, SETTLE_ATTEMPTS, KEYS_CACHE_MAX, RedisContext;
var init_context = __esm({
  "src/store/redis/context.ts"() {
    "use strict";
    init_store_unavailable_error();
    init_bounded_cache();
    init_keys();
    init_readiness();
    init_record();
    init_resp_connection();
    init_scripts();
    init_slot_moving_error();
    CACHE_MAX = 1e4;
    SETTLE_ATTEMPTS = 16;
    KEYS_CACHE_MAX = 1e5;
    RedisContext = class {
      client;
      /** The client and the duplicates made for blocking reads: whether they take commands (`whenReady`). */
      connections;
      options;
      prefix;
      /** The keys outside any project. */
      global;
      now;
      /** Approximate cap of each project's event stream, as the scripts take it. */
      maxLen;
      #knownProjects = /* @__PURE__ */ new Set();
      #keyCache = /* @__PURE__ */ new Map();
      // small entries: KEYS_CACHE_MAX
      /**
       * Questions as last read or parked, by `project\0id`, used only for what never changes after parking (the
       * spec, id, project, times): answering, dismissing and drafting need the options and texts, and the process that
       * answers has usually read the question already (the bridge rendered it). States always come from Redis.
       */
      #specCache = new BoundedCache(CACHE_MAX);
      /** Specs as parsed from records, so reading the same record again skips parsing its spec (record.ts). */
      #parsed = new ParsedSpecs(CACHE_MAX);
      constructor(client, options) {
        this.client = client;
        this.connections = new StoreConnections(client);
        this.options = options;
        this.prefix = options.prefix ?? "al";
        this.global = globalKeys(this.prefix);
        this.now = options.now ?? Date.now;
        this.maxLen = String(options.eventStreamMaxLen ?? 1e4);
      }
      keys(project) {
        let keys = this.#keyCache.get(project);
        if (!keys) {
          if (this.#keyCache.size >= KEYS_CACHE_MAX) this.#keyCache.clear();
          keys = new ProjectKeys(this.prefix, project);
          this.#keyCache.set(project, keys);
        }
        return keys;
      }
      /** Keep a question's unchanging parts for later calls about it; returns it. */
      remember(question) {
        const key = `${question.project}\0${question.id}`;
        if (!this.#specCache.has(key)) this.#specCache.set(key, question);
        return question;
      }
      /** The question's unchanging parts: from the cache, else read (and remembered). */
      async spec(project, id) {
        return this.#specCache.get(`${project}\0${id}`) ?? await this.get(project, id);
      }
      /** Run a call's work, connection failures as `StoreUnavailableError`. */
      async run(work) {
        try {
          return await work();
        } catch (error) {
          throw toStoreError(error);
        }
      }
      /** A record's fields as a question, remembered. Throws `CorruptRecordError`. */
      fromHash(hash, where) {
        return this.remember(questionFromHash(hash, where, this.#parsed));
      }
      /** A record a script sent (see `hashFromScript`) as a question, remembered. Throws `CorruptRecordError`. */
      read(reply, where) {
        return this.fromHash(hashFromScript(reply, where), where);
      }
      /** A hash's fields; undefined when the key does not exist. */
      async hash(key) {
        const hash = hashFromFlat(await this.client.sendCommand(["HGETALL", key]));
        return Object.keys(hash).length === 0 ? void 0 : hash;
      }
      /** One question as stored now (not mapped: callers run it inside `run`). */
      async get(project, id) {
        const hash = await this.hash(this.keys(project).question(id));
        return hash && this.fromHash(hash, `${project}#${id}`);
      }
      /** Run a script. */
      async eval(script, keys, args) {
        if (keys.length !== script.numberOfKeys) throw new Error(`${script.name} takes ${script.numberOfKeys} keys`);
        const command = ["EVALSHA", script.sha, String(keys.length)];
        for (const key of keys) command.push(key);
        for (const arg of args) command.push(String(arg));
        try {
          return await this.client.sendCommand(command);
        } catch (error) {
          if (error instanceof Error && error.message.startsWith("NOSCRIPT")) {
            const again = command.slice();
            again[0] = "EVAL";
            again[1] = script.source;
            return this.client.sendCommand(again);
          }
          throw error;
        }
      }
      /**
       * What a script that reads the records an index names does with one that is absent: in a Redis Cluster the slot
       * may be migrating (the record is on the other node for now), so it answers SLOT_MOVING and writes nothing; on
       * one server the record is gone.
       */
      get missing() {
        return this.client.isCluster ? "wait" : "gone";
      }
      /** `eval`, again after a back-off while the script answers SLOT_MOVING (bounded: then SlotMovingError). */
      async evalSettled(script, keys, args) {
        for (let attempt = 1; ; attempt++) {
          const reply = await this.eval(script, keys, args);
          if (reply !== SLOT_MOVING) return reply;
          if (attempt >= SETTLE_ATTEMPTS) throw new SlotMovingError(keys[0] ?? script.name, attempt);
          await new Promise((resolve3) => setTimeout(resolve3, Math.min(10 * 2 ** (attempt - 1), 250)));
        }
      }
      /** Record the project in `projects` (tag → name), once per process. */
      async registerProject(keys) {
        if (this.#knownProjects.has(keys.tag)) return;
        await this.client.sendCommand(["HSETNX", this.global.projects, keys.tag, keys.project]);
        this.#knownProjects.add(keys.tag);
      }
      /**
       * Cluster only: tell event consumers that this project's stream has something new (consumer.ts), once the
       * transition is written. A lost hint only delays consumers until their next full pass, so it never fails a call.
       */
      async hint(keys) {
        if (!this.client.isCluster) return;
        await this.client.sendCommand(["PUBLISH", this.global.hints, keys.tag]).catch(() => void 0);
      }
      /** Every project that ever parked: tag → project name. */
      async projects() {
        const reply = await this.client.sendCommand(["HGETALL", this.global.projects]);
        return new Map(Object.entries(hashFromFlat(reply)));
      }
      /** A connection of its own for a blocking read, followed by `whenReady`. */
      async duplicate() {
        return this.connections.add(await this.client.duplicate());
      }
      /** Cluster only: how readers of every project's stream learn which streams to read (hints.ts). */
      hintOptions() {
        if (!this.client.isCluster) return {};
        return {
          hints: (listener) => this.client.subscribe(this.global.hints, listener),
          ...this.options.eventFullPassMs !== void 0 ? { fullPassMs: this.options.eventFullPassMs } : {}
        };
      }
    };
  }
});

// src/core/similarity.ts
function stem(word) {
  let w = word.replace(/'s$/, "");
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("es") && /(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const suffix of ["ations", "ation", "ings", "ing", "edly", "ed", "ly", "ment", "ments", "ers", "er"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  if (/([bdgklmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}
function terms(text) {
  const words = text.normalize("NFKD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase().replace(/['’]s\b/g, "").split(/[^\p{L}\p{N}]+/u);
  const kept = [];
  for (const word of words) {
    if (word === "" || STOP_WORDS.has(word)) continue;
    kept.push(stem(word));
  }
  return kept;
}
function termVector(item) {
  const own = [...terms(item.question), ...item.topic === void 0 ? [] : terms(item.topic)];
  const all = [...own, ...terms(item.question), ...item.options.flatMap((option) => terms(option.label))];
  const counts = /* @__PURE__ */ new Map();
  for (const term of all) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: all.length, core: new Set(own) };
}
function idf(term, stats) {
  const df = Math.min(stats.documentFrequency(term), stats.documents);
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
}
function termScore(query, term, tf, length) {
  const weight = query.weights.get(term);
  if (weight === void 0 || tf <= 0) return 0;
  const average = query.averageLength > 0 ? query.averageLength : length || 1;
  return weight * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average));
}
function prepareQuery(query, stats) {
  const weights = /* @__PURE__ */ new Map();
  for (const term of query.counts.keys()) weights.set(term, idf(term, stats));
  const prepared = { weights, self: 0, averageLength: stats.averageLength };
  let self = 0;
  for (const term of query.core) self += termScore(prepared, term, query.counts.get(term) ?? 0, query.length);
  return { ...prepared, self };
}
var STOP_WORDS, K1, B, DECIDED_THRESHOLD, DECIDED_MAX;
var init_similarity = __esm({
  "src/core/similarity.ts"() {
    "use strict";
    STOP_WORDS = new Set(
      "a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing down during each either few for from further had has have having he her here hers how i if in into is it its itself just let lets like may me might more most must my need needs no nor not now of off on once one only or other our ours out over own please same shall she should so some such than that the their theirs them then there these they this those through to too under until up us use used using very want wants was we were what when where whether which while who whom why will with would yes you your yours go going get".split(" ")
    );
    K1 = 1.2;
    B = 0.75;
    DECIDED_THRESHOLD = 0.65;
    DECIDED_MAX = 3;
  }
});

// src/store/decided-index.ts
function documentsOf(question) {
  if (question.members === void 0) return [{ id: question.id, vector: termVector(question) }];
  return question.members.map((member, index) => ({ id: question.id, member: index, vector: termVector(member) }));
}
function encodeTerms(vector) {
  return [...vector.counts].map(([term, count]) => `${term}:${count}`).join(" ");
}
function documentRef(document) {
  return document.member === void 0 ? String(document.id) : `${document.id}.${document.member}`;
}
function parseDocumentRef(ref) {
  const dot = ref.indexOf(".");
  return dot < 0 ? { id: Number(ref) } : { id: Number(ref.slice(0, dot)), member: Number(ref.slice(dot + 1)) };
}
function encodeDocuments(documents) {
  return documents.map((document) => `${documentRef(document)}	${document.vector.length}	${encodeTerms(document.vector)}`).join("\n");
}
function storedScorer(query) {
  const needles = [...query.weights.keys()].map((term) => ({ term, first: `${term}:`, later: ` ${term}:` }));
  return ({ terms: terms2, length }) => {
    if (query.self === 0) return 0;
    let score = 0;
    for (const { term, first, later } of needles) {
      let at = terms2.startsWith(first) ? 0 : terms2.indexOf(later);
      if (at < 0) continue;
      at += at === 0 ? first.length : later.length;
      let tf = 0;
      for (let code = terms2.charCodeAt(at); code >= 48 && code <= 57; code = terms2.charCodeAt(++at)) {
        tf = tf * 10 + code - 48;
      }
      score += termScore(query, term, tf, length);
    }
    return score / query.self;
  };
}
function candidateTerms(queries, stats, threshold = DECIDED_THRESHOLD) {
  const chosen = /* @__PURE__ */ new Set();
  for (const query of queries) {
    const weighed = [...query.core].map((term) => ({ term, weight: idf(term, stats), held: stats.documentFrequency(term) > 0 })).sort((a, b) => b.weight - a.weight);
    const total = weighed.reduce((sum, each) => sum + each.weight, 0);
    let left = total;
    for (const { term, weight, held } of weighed) {
      if (left < threshold * total * 0.6) break;
      if (held) chosen.add(term);
      left -= weight;
    }
  }
  return [...chosen];
}
function best(scored, max = DECIDED_MAX) {
  scored.sort((a, b) => b.score - a.score || b.id - a.id);
  const seen = /* @__PURE__ */ new Set();
  return scored.filter((found) => !seen.has(found.id) && seen.add(found.id)).slice(0, max);
}
function rank(items, candidates, stats, options = {}) {
  const threshold = options.threshold ?? DECIDED_THRESHOLD;
  return items.map((item) => {
    const scoreOf = storedScorer(prepareQuery(termVector(item), stats));
    const scored = [];
    for (const document of candidates) {
      const score = scoreOf(document);
      if (score < threshold) continue;
      scored.push({ id: document.id, ...document.member === void 0 ? {} : { member: document.member }, score });
    }
    return best(scored, options.max);
  });
}
function refOf(key) {
  if (typeof key === "string") return key;
  const member = key % 8 - 1;
  return member < 0 ? String(key / 8) : `${(key - member - 1) / 8}.${member}`;
}
function scoredDocument(key, score) {
  if (typeof key === "string") return { ...parseDocumentRef(key), score };
  const member = key % 8 - 1;
  return member < 0 ? { id: key / 8, score } : { id: (key - member - 1) / 8, member, score };
}
function rankFromPostings(items, postings, wanted, stats, options) {
  const threshold = options.threshold ?? DECIDED_THRESHOLD;
  const reader = new PostingReader();
  let slots = /* @__PURE__ */ new Map();
  let keys = [];
  let lengths = [];
  let unknown = [];
  for (const term of wanted) {
    const text = postings.get(term);
    if (text === void 0) continue;
    reader.reset(text);
    while (reader.next()) {
      const slot = slots.get(reader.key);
      if (slot === void 0) {
        slots.set(reader.key, keys.length);
        keys.push(reader.key);
        lengths.push(reader.length);
        unknown.push(reader.tf < 0);
      } else if (reader.tf < 0) {
        unknown[slot] = true;
      }
    }
  }
  if (keys.length > options.most) {
    const id = (key) => typeof key === "number" ? key / 8 : Number.parseFloat(key);
    const newest = keys.map((_, slot) => slot).sort((a, b) => id(keys[b]) - id(keys[a])).slice(0, options.most);
    const was = { keys, lengths, unknown };
    keys = newest.map((slot) => was.keys[slot]);
    lengths = newest.map((slot) => was.lengths[slot]);
    unknown = newest.map((slot) => was.unknown[slot]);
    slots = new Map(keys.map((key, slot) => [key, slot]));
  }
  const partial = new Float64Array(keys.length);
  const scored = [];
  const unsettled = [];
  for (const item of items) {
    const query = prepareQuery(termVector(item), stats);
    const found = [];
    const unread = [];
    scored.push(found);
    unsettled.push(unread);
    if (query.self === 0) continue;
    partial.fill(0);
    for (const [term, text] of postings) {
      if (!query.weights.has(term)) continue;
      reader.reset(text);
      while (reader.next()) {
        const slot = slots.get(reader.key);
        if (slot === void 0) continue;
        if (reader.tf < 0) {
          unknown[slot] = true;
          continue;
        }
        lengths[slot] = reader.length;
        partial[slot] = (partial[slot] ?? 0) + termScore(query, term, reader.tf, reader.length);
      }
    }
    const missing = [...query.weights.keys()].filter(
      (term) => !postings.has(term) && stats.documentFrequency(term) > 0
    );
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      if (unknown[slot]) {
        unread.push(refOf(key));
        continue;
      }
      const known = partial[slot] ?? 0;
      if (missing.length === 0) {
        const score = known / query.self;
        if (score >= threshold) found.push(scoredDocument(key, score));
        continue;
      }
      const length = lengths[slot] ?? 0;
      let bound = known;
      for (const term of missing) bound += termScore(query, term, length, length);
      if (bound / query.self >= threshold) unread.push(refOf(key));
    }
  }
  return { scored, unsettled };
}
function withDecisions(ranked, decisions) {
  return ranked.map(
    (found) => found.flatMap(({ id, member, score }) => {
      const decision = decisions.get(id);
      return decision === void 0 ? [] : [{ decision, ...member === void 0 ? {} : { member }, score }];
    })
  );
}
var SPACE, DOT, COLON, PostingReader;
var init_decided_index = __esm({
  "src/store/decided-index.ts"() {
    "use strict";
    init_similarity();
    SPACE = 32;
    DOT = 46;
    COLON = 58;
    PostingReader = class {
      /** The document as a map key: a number for `<id>` and `<id>.<member>` with a member below 7, else its ref. */
      key = 0;
      tf = -1;
      length = -1;
      #text = "";
      #at = 0;
      #refStart = 0;
      #refEnd = 0;
      /** Where the last `#number` stopped. */
      #after = 0;
      constructor(text = "") {
        this.reset(text);
      }
      reset(text) {
        this.#text = text;
        this.#at = 0;
      }
      /** The document's ref, `<id>` or `<id>.<member>` (allocated: call it once per document, not per posting). */
      get ref() {
        return this.#text.slice(this.#refStart, this.#refEnd);
      }
      /** Move to the next readable posting; false after the last. */
      next() {
        const text = this.#text;
        for (; ; ) {
          let at = this.#at;
          while (at < text.length && text.charCodeAt(at) === SPACE) at++;
          if (at >= text.length) {
            this.#at = at;
            return false;
          }
          let end = text.indexOf(" ", at);
          if (end < 0) end = text.length;
          this.#at = end;
          this.#refStart = at;
          const id = this.#number(at, end);
          if (id < 0) continue;
          at = this.#after;
          let member = -1;
          if (at < end && text.charCodeAt(at) === DOT) {
            member = this.#number(at + 1, end);
            if (member < 0) continue;
            at = this.#after;
          }
          this.#refEnd = at;
          this.tf = -1;
          this.length = -1;
          if (at < end) {
            if (text.charCodeAt(at) !== COLON) continue;
            const tf = this.#number(at + 1, end);
            at = this.#after;
            if (tf > 0 && at < end && text.charCodeAt(at) === COLON) {
              const length = this.#number(at + 1, end);
              if (length > 0 && this.#after === end) {
                this.tf = tf;
                this.length = length;
              }
            }
          }
          this.key = member < 0 ? id * 8 : member < 7 ? id * 8 + 1 + member : this.ref;
          return true;
        }
      }
      /** The whole number whose digits start at `at` (before `end`); -1 if none. */
      #number(at, end) {
        const text = this.#text;
        let value = 0;
        let i = at;
        for (; i < end; i++) {
          const code = text.charCodeAt(i);
          if (code < 48 || code > 57) break;
          value = value * 10 + code - 48;
        }
        this.#after = i;
        return i === at ? -1 : value;
      }
    };
  }
});

// src/store/redis/decisions.ts
function storedDocument(ref, text) {
  if (typeof text !== "string") return void 0;
  const bar = text.indexOf("|");
  return { ...parseDocumentRef(ref), length: Number(text.slice(0, bar)) || 0, terms: text.slice(bar + 1) };
}
var CANDIDATES_MAX, BUILD_BATCH, RedisDecisions;
var init_decisions = __esm({
  "src/store/redis/decisions.ts"() {
    "use strict";
    init_similarity();
    init_decided_index();
    init_scripts();
    CANDIDATES_MAX = 2e3;
    BUILD_BATCH = 200;
    RedisDecisions = class {
      #x;
      #trail;
      constructor(context, trail) {
        this.#x = context;
        this.#trail = trail;
      }
      /** Index the project's earlier decisions once (answered before the index existed). */
      async #build(key, project) {
        const x = this.#x;
        let after;
        do {
          const page = await this.#trail(project, { limit: BUILD_BATCH, ...after === void 0 ? {} : { after } });
          const args = page.decisions.flatMap((decision) => [String(decision.id), encodeDocuments(documentsOf(decision))]);
          after = page.next;
          await x.eval(scripts.indexDecisions, [key], [after === void 0 ? "1" : "0", ...args]);
        } while (after !== void 0);
      }
      similarDecisions(project, items, options = {}) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const key = keys.decisions;
          const queries = items.map((item) => termVector(item));
          const terms2 = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
          const readTotals = async () => await x.evalSettled(
            scripts.decidedStats,
            [key, keys.decisionsQueue],
            [keys.base, x.missing, CANDIDATES_MAX, ...terms2]
          );
          let counted = await readTotals();
          if (counted[0] !== "1") {
            await this.#build(key, project);
            counted = await readTotals();
          }
          const documents = Number(counted[1] ?? 0);
          if (documents <= 0 || terms2.length === 0) return items.map(() => []);
          const frequency = new Map(terms2.map((term, index) => [term, Number(counted[index + 3] ?? 0)]));
          const stats = {
            documents,
            averageLength: Number(counted[2] ?? 0) / documents,
            documentFrequency: (term) => frequency.get(term) ?? 0
          };
          const wanted = candidateTerms(queries, stats, options.threshold).filter((term) => (frequency.get(term) ?? 0) > 0);
          if (wanted.length === 0) return items.map(() => []);
          const postings = /* @__PURE__ */ new Map();
          for (const [index, term] of terms2.entries()) {
            const text = counted[index + 3 + terms2.length];
            if (typeof text === "string") postings.set(term, text);
          }
          const unsent = wanted.filter((term) => !postings.has(term));
          if (unsent.length > 0) {
            const fetched = await x.client.sendCommand(["HMGET", key, ...unsent.map((term) => `t:${term}`)]);
            for (const [index, term] of unsent.entries()) postings.set(term, fetched[index] ?? "");
          }
          const settled = rankFromPostings(items, postings, wanted, stats, { ...options, most: CANDIDATES_MAX });
          const refs = [...new Set(settled.unsettled.flat())];
          const stored = refs.length === 0 ? [] : await x.client.sendCommand(["HMGET", key, ...refs.map((ref) => `d:${ref}`)]);
          const read = /* @__PURE__ */ new Map();
          for (let index = 0; index < refs.length; index++) {
            const document = storedDocument(refs[index], stored[index]);
            if (document !== void 0) read.set(refs[index], document);
          }
          const ranked = items.map((item, index) => {
            const documents2 = (settled.unsettled[index] ?? []).flatMap((ref) => read.get(ref) ?? []);
            const [fromDocuments = []] = rank([item], documents2, stats, { ...options, max: Number.POSITIVE_INFINITY });
            return best([...settled.scored[index] ?? [], ...fromDocuments], options.max);
          });
          const ids = [...new Set(ranked.flat().map((each) => each.id))];
          const decisions = /* @__PURE__ */ new Map();
          for (const question of await Promise.all(ids.map((id) => x.get(project, id)))) {
            if (question?.answer !== void 0) decisions.set(question.id, question);
          }
          return withDecisions(ranked, decisions);
        });
      }
    };
  }
});

// src/store/shared.ts
function claimedIds(claim, only) {
  const ids = claim.questions.map((q) => q.id);
  return only ? ids.filter((id) => only.includes(id)) : ids;
}
function readEach(records, read, onCorrupt) {
  const questions = [];
  for (const record2 of records) {
    try {
      const question = read(record2);
      if (question !== void 0) questions.push(question);
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      onCorrupt?.(error);
    }
  }
  return questions;
}
function expiryOf(spec, now) {
  return spec.expiresInSeconds === void 0 ? void 0 : now + spec.expiresInSeconds * 1e3;
}
function parkedQuestion(project, id, spec, now) {
  const expiresAt = expiryOf(spec, now);
  const state = expiresAt === void 0 ? { project, id, status: "pending", createdAt: now, messages: [] } : { project, id, status: "pending", createdAt: now, expiresAt, messages: [] };
  return Object.assign({}, spec, state);
}
function refusal(question, target, now) {
  if (!canTransition(question.status, target)) {
    return question.status === "answered" || question.status === "delivered" ? "already-answered" : "not-pending";
  }
  if (question.expiresAt !== void 0 && question.expiresAt <= now) return "past-expiry";
  return void 0;
}
function tallyCounts(rows) {
  const counts = Object.fromEntries(QUESTION_STATUSES.map((status) => [status, { blocking: 0, canWait: 0 }]));
  for (const row of rows) {
    const entry = counts[row.status];
    if (!entry) continue;
    if (row.blocking) entry.blocking += row.n;
    else entry.canWait += row.n;
  }
  return counts;
}
var RETENTION_MS;
var init_shared = __esm({
  "src/store/shared.ts"() {
    "use strict";
    init_question();
    init_corrupt_record_error();
    RETENTION_MS = 30 * 24 * 60 * 60 * 1e3;
  }
});

// src/store/redis/delivery.ts
var import_node_crypto3, RedisDelivery;
var init_delivery = __esm({
  "src/store/redis/delivery.ts"() {
    "use strict";
    import_node_crypto3 = require("node:crypto");
    init_shared();
    init_scripts();
    RedisDelivery = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      claimUndelivered(project, options) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const claimId = (0, import_node_crypto3.randomUUID)();
          const now = x.now();
          const reply = await x.evalSettled(
            scripts.claim,
            [keys.outbox],
            [
              keys.base,
              now,
              options.budget,
              claimId,
              now + options.leaseMs,
              options.blockingOnly ? "blocking" : "",
              x.missing,
              options.questionId === void 0 ? "" : String(options.questionId)
            ]
          );
          const questions = [];
          try {
            for (let i = 1; i + 1 < reply.length; i += 2) questions.push(x.read(reply[i + 1], `${project}#${reply[i]}`));
          } catch (error) {
            const ids = reply.filter((_, i) => i % 2 === 1).map(String);
            await x.evalSettled(scripts.release, [keys.outbox], [keys.base, x.missing, claimId, ...ids]).catch(() => void 0);
            throw error;
          }
          return { claimId, via: options.via ?? "prompt", questions, remaining: Number(reply[0]) };
        });
      }
      waitingOutcomes(project, options = {}) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const reply = await x.evalSettled(
            scripts.waiting,
            [keys.outbox],
            [keys.base, x.now(), options.blockingOnly ? "blocking" : "", x.missing]
          );
          const questions = [];
          for (let i = 0; i + 1 < reply.length; i += 2) questions.push(x.read(reply[i + 1], `${project}#${reply[i]}`));
          return questions;
        });
      }
      confirmClaim(project, claim, ids) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const reply = await x.evalSettled(
            scripts.confirm,
            [keys.outbox, keys.status("answered"), keys.status("delivered"), keys.done, keys.events],
            [keys.base, x.now(), claim.claimId, x.maxLen, claim.via, x.missing, ...claimedIds(claim, ids)]
          );
          if (reply.length > 0) await x.hint(keys);
          return reply.map(Number).sort((a, b) => a - b);
        });
      }
      releaseClaim(project, claim, ids) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          await x.evalSettled(
            scripts.release,
            [keys.outbox],
            [keys.base, x.missing, claim.claimId, ...claimedIds(claim, ids)]
          );
        });
      }
      markDelivered(project, id, via = "tool-result") {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const code = Number(
            await x.eval(
              scripts.deliver,
              [keys.question(id), keys.outbox, keys.status("answered"), keys.status("delivered"), keys.done, keys.events],
              [id, x.now(), x.maxLen, via]
            )
          );
          if (code === DeliverCode.delivered) {
            await x.hint(keys);
            return "delivered";
          }
          return code === DeliverCode.leased ? "leased" : "not-waiting";
        });
      }
    };
  }
});

// src/core/inbox.ts
function shownSelection(item, draft) {
  if (draft !== void 0) return draft;
  return { choices: [...item.recommended ?? []], other: false };
}
var init_inbox = __esm({
  "src/core/inbox.ts"() {
    "use strict";
    init_answer();
    init_question();
    init_reply();
  }
});

// src/store/drafts.ts
function personKey(person, member) {
  const key = `${person.platform}:${person.userId}`;
  return member === void 0 ? key : `${key}#${member + 1}`;
}
function draftItem(question, member) {
  if (question.members === void 0) {
    if (member !== void 0) throw new InvalidAnswerError(`Expected no member for #${question.id}: it is not a set`);
    return question;
  }
  const item = member === void 0 ? void 0 : question.members[member];
  if (item === void 0 || member === void 0) {
    throw new InvalidAnswerError(
      `Expected one of the ${question.members.length} questions of the set #${question.id}, got ${member === void 0 ? "none" : `#${question.id}.${member + 1}`}`
    );
  }
  return item;
}
function checkDraftChange(question, change) {
  const item = draftItem(question, change.member);
  const where = change.member === void 0 ? `#${question.id}` : memberRef(question.id, change.member);
  const labels = item.options.map((o) => o.label);
  let pick;
  if (change.pick !== void 0) {
    const { choices, other } = change.pick;
    if (choices.some((choice) => !labels.includes(choice))) {
      throw new InvalidAnswerError(`Expected choices among the options of ${where}, got one that is not`);
    }
    if (!item.multiSelect && choices.length + (other ? 1 : 0) > 1) {
      throw new InvalidAnswerError(`Expected at most one pick for ${where} (not multi-select)`);
    }
    pick = { choices: labels.filter((label) => choices.includes(label)), other };
  }
  const notes = change.notes?.trim();
  if (notes !== void 0 && notes.length > NOTES_MAX) {
    throw new InvalidAnswerError(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  let choiceNotes;
  if (change.choiceNotes !== void 0) {
    const checked = checkChoiceNotes(item, labels, new Set(labels), change.choiceNotes);
    if (typeof checked === "string") throw new InvalidAnswerError(`${checked} (${where})`);
    choiceNotes = change.choiceNotes.map(({ choice, notes: text }) => ({ choice, notes: text.trim() }));
  }
  return {
    ...change.member !== void 0 ? { member: change.member } : {},
    ...pick !== void 0 ? { pick } : {},
    ...notes !== void 0 ? { notes } : {},
    ...choiceNotes !== void 0 ? { choiceNotes } : {}
  };
}
function draftBase(item) {
  const { choices, other } = shownSelection(item);
  return { choices, other };
}
function mergeDraft(item, stored, change, now) {
  const pick = change.pick ?? stored ?? draftBase(item);
  const notes = change.notes ?? stored?.notes;
  const byChoice = new Map((stored?.choiceNotes ?? []).map(({ choice, notes: text }) => [choice, text]));
  for (const { choice, notes: text } of change.choiceNotes ?? []) byChoice.set(choice, text);
  const choiceNotes = item.options.flatMap(({ label }) => {
    const text = byChoice.get(label);
    return text ? [{ choice: label, notes: text }] : [];
  });
  return {
    choices: [...pick.choices],
    other: pick.other,
    ...notes ? { notes } : {},
    ...choiceNotes.length > 0 ? { choiceNotes } : {},
    updatedAt: now
  };
}
function parseDraft(text, where) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError(where, "draft: expected JSON", { cause: error });
  }
  if (value !== null && typeof value === "object" && Array.isArray(value.choices) && value.choices.every((c) => typeof c === "string") && typeof value.other === "boolean" && typeof value.updatedAt === "number" && (value.notes === void 0 || typeof value.notes === "string") && (value.choiceNotes === void 0 || Array.isArray(value.choiceNotes) && value.choiceNotes.every(
    (entry) => entry !== null && typeof entry === "object" && typeof entry.choice === "string" && typeof entry.notes === "string"
  ))) {
    return value;
  }
  throw unreadableDraft(where);
}
function unreadableDraft(where) {
  return new CorruptRecordError(
    where,
    "draft: expected {choices: string[], other: boolean, notes?, choiceNotes?: {choice, notes}[], updatedAt}"
  );
}
function byBlockingThenId(a, b) {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id;
}
function byBlockingThenAge(a, b) {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.createdAt - b.createdAt || a.id - b.id;
}
var init_drafts = __esm({
  "src/store/drafts.ts"() {
    "use strict";
    init_answer();
    init_inbox();
    init_invalid_answer_error();
    init_limits();
    init_question();
    init_corrupt_record_error();
  }
});

// src/store/redis/drafts.ts
var RedisDrafts;
var init_drafts2 = __esm({
  "src/store/redis/drafts.ts"() {
    "use strict";
    init_drafts();
    init_scripts();
    RedisDrafts = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      saveDraft(project, id, person, change) {
        const x = this.#x;
        return x.run(async () => {
          const question = await x.spec(project, id);
          if (!question) return { kind: "unknown" };
          const checked = checkDraftChange(question, change);
          const item = draftItem(question, checked.member);
          const keys = x.keys(project);
          const reply = await x.eval(
            scripts.draft,
            [keys.question(id), keys.drafts(id)],
            [
              personKey(person, checked.member),
              checked.pick === void 0 ? "" : JSON.stringify(checked.pick),
              checked.notes === void 0 ? "0" : "1",
              checked.notes ?? "",
              JSON.stringify(draftBase(item)),
              String(x.now()),
              checked.choiceNotes === void 0 ? "" : JSON.stringify(checked.choiceNotes),
              JSON.stringify(item.options.map((option) => option.label))
            ]
          );
          const where = `${project}#${id}`;
          switch (Number(reply[0])) {
            case DraftCode.saved:
              return { kind: "saved", draft: parseDraft(String(reply[1]), where) };
            case DraftCode.unknown:
              return { kind: "unknown" };
            case DraftCode.notPending:
              return { kind: "not-pending", question: x.read(reply[1], where) };
            default:
              throw unreadableDraft(where);
          }
        });
      }
      getDraft(project, id, person, member) {
        const x = this.#x;
        return x.run(async () => {
          const key = personKey(person, member);
          const text = await x.client.sendCommand(["HGET", x.keys(project).drafts(id), key]);
          return text === null ? void 0 : parseDraft(text, `${project}#${id}`);
        });
      }
    };
  }
});

// src/store/port.ts
var EVENT_TYPES;
var init_port = __esm({
  "src/store/port.ts"() {
    "use strict";
    EVENT_TYPES = [
      "parked",
      "answered",
      "cancelled",
      "dismissed",
      "expired",
      "delivered",
      "reminded"
    ];
  }
});

// src/store/redis/hints.ts
var FULL_PASS_MS, StreamHints;
var init_hints = __esm({
  "src/store/redis/hints.ts"() {
    "use strict";
    FULL_PASS_MS = 5e3;
    StreamHints = class {
      #subscribe;
      #fullPassMs;
      /** Project tags hinted since their stream was last read. */
      #hinted = /* @__PURE__ */ new Set();
      #fullPassDue = true;
      #lastFullPass = 0;
      #subscription;
      #subscribing;
      #wake;
      #closed = false;
      constructor(subscribe, fullPassMs = FULL_PASS_MS) {
        this.#subscribe = subscribe;
        this.#fullPassMs = fullPassMs;
      }
      /** Subscribe if not subscribed (again after a lost subscription); a failure leaves the periodic full pass. */
      async subscribe() {
        if (this.#subscription?.isOpen || this.#closed) return;
        this.#subscribing ??= (async () => {
          try {
            this.#subscription = await this.#subscribe({
              onMessage: (tag) => {
                this.#hinted.add(tag);
                this.#wake?.();
              },
              onReady: () => {
                this.#fullPassDue = true;
                this.#wake?.();
              }
            });
            if (this.#closed) this.#subscription.close();
          } catch {
          } finally {
            this.#subscribing = void 0;
          }
        })();
        await this.#subscribing;
      }
      /** The streams to read now: every one on a full pass, else those hinted since the last call. */
      due(streams) {
        const now = Date.now();
        if (this.#fullPassDue || now - this.#lastFullPass >= this.#fullPassMs) {
          this.#fullPassDue = false;
          this.#lastFullPass = now;
          this.#hinted.clear();
          return [...streams];
        }
        const due = streams.filter((stream) => this.#hinted.has(stream.tag));
        this.#hinted.clear();
        return due;
      }
      /** Read this stream again next time (a full batch may have left more behind). */
      again(tag) {
        this.#hinted.add(tag);
      }
      /** Until a hint (or a new subscription) arrives, the next full pass is due, `ms` passed, or `close`. */
      async wait(ms) {
        if (this.#hinted.size > 0 || this.#fullPassDue || this.#closed) return;
        const untilFullPass = Math.max(0, this.#lastFullPass + this.#fullPassMs - Date.now());
        await new Promise((resolve3) => {
          const done = () => {
            clearTimeout(timer);
            this.#wake = void 0;
            resolve3();
          };
          const timer = setTimeout(done, Math.min(ms, untilFullPass));
          this.#wake = done;
        });
      }
      close() {
        this.#closed = true;
        this.#subscription?.close();
        this.#wake?.();
      }
    };
  }
});

// src/store/redis/consumer.ts
function isEventType(value) {
  return EVENT_TYPES.includes(value ?? "");
}
function tagOf(streamKey) {
  return streamKey.slice(streamKey.indexOf("{") + 1, streamKey.indexOf("}"));
}
function parseStreamReply(reply, projectOf) {
  if (!Array.isArray(reply)) return [];
  const events = [];
  for (const [streamKey, entries] of reply) {
    for (const [entryId, flat] of entries) events.push(...parseEntry(String(streamKey), entryId, flat, projectOf));
  }
  return events;
}
function parseEntry(streamKey, entryId, flat, projectOf) {
  const fields = {};
  for (let i = 0; flat && i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  const project = fields.project ?? projectOf(streamKey);
  const type = fields.type;
  const questionId = Number(fields.id);
  if (!isEventType(type) || project === void 0 || !Number.isInteger(questionId)) {
    return [];
  }
  return [
    {
      eventId: `${tagOf(streamKey)}/${entryId}`,
      entryId,
      streamKey,
      type,
      project,
      questionId,
      at: Number(fields.at)
    }
  ];
}
function fieldsOf(reply) {
  const fields = {};
  if (!Array.isArray(reply)) return fields;
  for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = reply[i + 1];
  return fields;
}
function entryIdBefore(id) {
  const [ms = "0", seq = "0"] = id.split("-");
  if (BigInt(seq) > 0n) return `${ms}-${BigInt(seq) - 1n}`;
  if (BigInt(ms) > 0n) return `${BigInt(ms) - 1n}-18446744073709551615`;
  return "0";
}
function strip(event) {
  return {
    eventId: event.eventId,
    type: event.type,
    project: event.project,
    questionId: event.questionId,
    at: event.at
  };
}
var RedisEventConsumer;
var init_consumer = __esm({
  "src/store/redis/consumer.ts"() {
    "use strict";
    init_port();
    init_hints();
    RedisEventConsumer = class {
      #o;
      #grouped = /* @__PURE__ */ new Set();
      #streamByTag = /* @__PURE__ */ new Map();
      /** Cluster: which streams to read next (hints.ts). */
      #hints;
      #closed = false;
      constructor(options) {
        this.#o = options;
        this.#hints = options.hints && new StreamHints(options.hints, options.fullPassMs);
      }
      /** Stream keys of every project, creating the group (from the first entry) on streams that lack it. */
      async #streams() {
        const keys = await this.#o.streams();
        for (const project of keys) {
          if (this.#grouped.has(project.events)) continue;
          try {
            const start = await this.#startOf(project.events);
            await this.#o.client.sendCommand(["XGROUP", "CREATE", project.events, this.#o.group, start, "MKSTREAM"]);
          } catch (error) {
            if (!(error instanceof Error && error.message.startsWith("BUSYGROUP"))) throw error;
          }
          this.#grouped.add(project.events);
          this.#streamByTag.set(project.tag, project.events);
        }
        return [...this.#grouped];
      }
      /** Where this group starts on a stream: `0`, or where the inherited group got to (see `ConsumerOptions`). */
      async #startOf(stream) {
        const from = this.#o.inheritFrom;
        if (from === void 0) return "0";
        let groups;
        try {
          groups = await this.#o.client.sendCommand(["XINFO", "GROUPS", stream]);
        } catch {
          return "0";
        }
        const inherited = (Array.isArray(groups) ? groups : []).map(fieldsOf).find((g) => g.name === from);
        if (!inherited) return "0";
        const summary = await this.#o.client.sendCommand(["XPENDING", stream, from]);
        const oldestPending = Number(summary?.[0] ?? 0) > 0 ? summary[1] : void 0;
        if (typeof oldestPending === "string") return entryIdBefore(oldestPending);
        return typeof inherited["last-delivered-id"] === "string" ? inherited["last-delivered-id"] : "0";
      }
      async read(options = {}) {
        if (this.#hints) return this.#readEach(options, this.#hints);
        const streams = await this.#streams();
        const blockMs = options.blockMs ?? 0;
        if (streams.length === 0) {
          if (blockMs > 0) await new Promise((resolve3) => setTimeout(resolve3, Math.min(blockMs, 250)));
          return [];
        }
        const command = ["XREADGROUP", "GROUP", this.#o.group, this.#o.consumer, "COUNT", String(options.count ?? 100)];
        if (blockMs > 0) command.push("BLOCK", String(blockMs));
        command.push("STREAMS", ...streams, ...streams.map(() => ">"));
        const connection = blockMs > 0 ? this.#o.blocking : this.#o.client;
        return parseStreamReply(await connection.sendCommand(command), () => void 0).map(strip);
      }
      /** Cluster: the hinted streams (all of them on a full pass), one command each; waiting means waiting for a hint. */
      async #readEach(options, hints) {
        await hints.subscribe();
        const blockMs = options.blockMs ?? 0;
        const count = options.count ?? 100;
        const events = await this.#readDue(count, hints);
        if (events.length > 0 || blockMs <= 0 || this.#closed) return events;
        await hints.wait(blockMs);
        return this.#closed ? [] : this.#readDue(count, hints);
      }
      async #readDue(count, hints) {
        await this.#streams();
        const due = hints.due([...this.#streamByTag].map(([tag, key]) => ({ tag, key })));
        const replies = await Promise.all(
          due.map(
            ({ key }) => this.#o.client.sendCommand([
              "XREADGROUP",
              "GROUP",
              this.#o.group,
              this.#o.consumer,
              "COUNT",
              String(count),
              "STREAMS",
              key,
              ">"
            ])
          )
        );
        const events = [];
        replies.forEach((reply, i) => {
          const read = parseStreamReply(reply, () => void 0);
          if (read.length >= count) hints.again(due[i]?.tag ?? "");
          events.push(...read.map(strip));
        });
        return events;
      }
      async reclaim(minIdleMs, count = 100) {
        const claimed = [];
        for (const stream of await this.#streams()) {
          let cursor = "0-0";
          do {
            const reply = await this.#o.client.sendCommand([
              "XAUTOCLAIM",
              stream,
              this.#o.group,
              this.#o.consumer,
              String(minIdleMs),
              cursor,
              "COUNT",
              String(count)
            ]);
            cursor = reply[0];
            for (const [entryId, flat] of reply[1] ?? []) {
              claimed.push(...parseEntry(stream, entryId, flat, () => void 0).map(strip));
            }
          } while (cursor !== "0-0" && claimed.length < count);
        }
        return claimed;
      }
      async ack(events) {
        const byStream = /* @__PURE__ */ new Map();
        for (const event of events) {
          const slash = event.eventId.indexOf("/");
          const stream = this.#streamByTag.get(event.eventId.slice(0, slash));
          if (!stream) continue;
          byStream.set(stream, [...byStream.get(stream) ?? [], event.eventId.slice(slash + 1)]);
        }
        for (const [stream, ids] of byStream) {
          await this.#o.client.sendCommand(["XACK", stream, this.#o.group, ...ids]);
        }
      }
      async close() {
        this.#closed = true;
        this.#hints?.close();
        this.#o.blocking.close();
        this.#o.onClose();
      }
    };
  }
});

// src/store/redis/tail.ts
var import_promises2, RedisEventTail;
var init_tail = __esm({
  "src/store/redis/tail.ts"() {
    "use strict";
    import_promises2 = require("node:timers/promises");
    init_store_unavailable_error();
    init_consumer();
    init_hints();
    RedisEventTail = class _RedisEventTail {
      #o;
      /** Stream key → the id of the last entry read (or the newest when the tail began). */
      #cursors;
      #hints;
      #closed = false;
      constructor(options, cursors) {
        this.#o = options;
        this.#cursors = cursors;
        this.#hints = options.hints && new StreamHints(options.hints, options.fullPassMs);
      }
      /** Begin now: every known stream from its newest entry (one look each, sent together). */
      static async begin(options) {
        const keys = (await options.streams()).map((project) => project.events);
        const newest = await Promise.all(
          keys.map((key) => options.client.sendCommand(["XREVRANGE", key, "+", "-", "COUNT", "1"]))
        );
        return new _RedisEventTail(options, new Map(keys.map((key, i) => [key, newest[i]?.[0]?.[0] ?? "0-0"])));
      }
      async next(options) {
        if (this.#closed) throw new StoreUnavailableError();
        if (options.signal?.aborted) return [];
        const abort = () => void this.close();
        options.signal?.addEventListener("abort", abort, { once: true });
        try {
          const streams = (await this.#o.streams()).map((project) => ({ tag: project.tag, key: project.events }));
          if (options.signal?.aborted) return [];
          const count = options.count ?? 100;
          const events = this.#hints ? await this.#readHinted(streams, count, options.timeoutMs, this.#hints) : await this.#readAll(
            streams.map((stream) => stream.key),
            count,
            options.timeoutMs
          );
          for (const event of events) this.#cursors.set(event.streamKey, event.entryId);
          return events.map(({ eventId, type, project, questionId, at }) => ({ eventId, type, project, questionId, at }));
        } catch (error) {
          if (options.signal?.aborted) return [];
          throw error;
        } finally {
          options.signal?.removeEventListener("abort", abort);
        }
      }
      /** One server: every stream in one XREAD, blocking up to `timeoutMs` on the tail's own connection. */
      async #readAll(keys, count, timeoutMs) {
        if (keys.length === 0) {
          await (0, import_promises2.setTimeout)(Math.min(Math.max(0, timeoutMs), 250));
          return [];
        }
        const command = ["XREAD", "COUNT", String(count)];
        const blockMs = Math.floor(timeoutMs);
        if (blockMs > 0) command.push("BLOCK", String(blockMs));
        command.push("STREAMS", ...keys, ...keys.map((key) => this.#cursors.get(key) ?? "0-0"));
        return parseStreamReply(await this.#o.blocking.sendCommand(command), () => void 0);
      }
      /** Cluster: the streams due (hinted, or all on a full pass), one XREAD each; waiting means waiting for a hint. */
      async #readHinted(streams, count, timeoutMs, hints) {
        await hints.subscribe();
        const read = async () => {
          const due = hints.due(streams);
          const replies = await Promise.all(
            due.map(
              ({ key }) => this.#o.client.sendCommand([
                "XREAD",
                "COUNT",
                String(count),
                "STREAMS",
                key,
                this.#cursors.get(key) ?? "0-0"
              ])
            )
          );
          return replies.flatMap((reply, i) => {
            const events2 = parseStreamReply(reply, () => void 0);
            if (events2.length >= count) hints.again(due[i]?.tag ?? "");
            return events2;
          });
        };
        const events = await read();
        if (events.length > 0 || timeoutMs <= 0 || this.#closed) return events;
        await hints.wait(timeoutMs);
        return this.#closed ? [] : read();
      }
      async close() {
        if (this.#closed) return;
        this.#closed = true;
        this.#hints?.close();
        this.#o.blocking.close();
        this.#o.onClose();
      }
    };
  }
});

// src/store/redis/events.ts
function wrapTail(tail) {
  return {
    next: async (options) => {
      try {
        return await tail.next(options);
      } catch (error) {
        throw toStoreError(error);
      }
    },
    close: () => tail.close()
  };
}
var RedisEvents;
var init_events = __esm({
  "src/store/redis/events.ts"() {
    "use strict";
    init_consumer();
    init_context();
    init_tail();
    RedisEvents = class {
      #x;
      #consumers = /* @__PURE__ */ new Set();
      #tails = /* @__PURE__ */ new Set();
      #waiters = /* @__PURE__ */ new Set();
      constructor(context) {
        this.#x = context;
      }
      consumer(group, consumerName, options = {}) {
        const x = this.#x;
        return x.run(async () => {
          const connection = await x.duplicate();
          const consumer = new RedisEventConsumer({
            client: x.client,
            blocking: connection,
            group,
            ...options.inheritFrom !== void 0 ? { inheritFrom: options.inheritFrom } : {},
            consumer: consumerName,
            streams: async () => {
              const projects = await x.projects();
              return [...projects.values()].map((project) => x.keys(project));
            },
            onClose: () => this.#consumers.delete(consumer),
            ...x.hintOptions()
          });
          this.#consumers.add(consumer);
          return consumer;
        });
      }
      tail() {
        const x = this.#x;
        return x.run(async () => {
          const blocking = await x.duplicate();
          const tail = await RedisEventTail.begin({
            client: x.client,
            blocking,
            streams: async () => [...(await x.projects()).values()].map((project) => x.keys(project)),
            onClose: () => this.#tails.delete(tail),
            ...x.hintOptions()
          }).catch((error) => {
            blocking.close();
            throw error;
          });
          this.#tails.add(tail);
          return wrapTail(tail);
        });
      }
      /** The id of the newest entry of a project's stream ('0-0' when it has none): where a blocking read starts. */
      async #newestEntry(eventsKey) {
        const last = await this.#x.client.sendCommand(["XREVRANGE", eventsKey, "+", "-", "COUNT", "1"]);
        return last[0]?.[0] ?? "0-0";
      }
      watch(project) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          let cursor = await this.#newestEntry(keys.events);
          const connection = await x.duplicate();
          this.#waiters.add(connection);
          const close = async () => {
            this.#waiters.delete(connection);
            connection.close();
          };
          const changed = (options) => x.run(async () => {
            if (options.signal?.aborted || options.timeoutMs <= 0) return false;
            const abort = () => void close();
            options.signal?.addEventListener("abort", abort, { once: true });
            try {
              const reply = await connection.sendCommand([
                "XREAD",
                "BLOCK",
                String(Math.max(1, Math.ceil(options.timeoutMs))),
                "STREAMS",
                keys.events,
                cursor
              ]);
              const newest = parseStreamReply(reply, () => project).at(-1);
              if (!newest) return false;
              cursor = newest.entryId;
              return true;
            } catch (error) {
              if (options.signal?.aborted) return false;
              throw error;
            } finally {
              options.signal?.removeEventListener("abort", abort);
            }
          });
          return { changed, close };
        });
      }
      waitWhilePending(project, id, options) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const deadline = x.now() + options.timeoutMs;
          let cursor = await this.#newestEntry(keys.events);
          let question = await x.get(project, id);
          if (question?.status !== "pending" || options.signal?.aborted) return question;
          const connection = await x.duplicate();
          this.#waiters.add(connection);
          const abort = () => connection.close();
          options.signal?.addEventListener("abort", abort, { once: true });
          try {
            for (; ; ) {
              const left = deadline - x.now();
              if (left <= 0 || options.signal?.aborted) break;
              let reply;
              try {
                reply = await connection.sendCommand(["XREAD", "BLOCK", String(left), "STREAMS", keys.events, cursor]);
              } catch (error) {
                if (options.signal?.aborted) break;
                throw error;
              }
              const events = parseStreamReply(reply, () => project);
              const mine = events.some((event) => event.questionId === id);
              const newest = events.at(-1);
              if (newest) cursor = newest.entryId;
              if (mine) {
                question = await x.get(project, id);
                if (question?.status !== "pending") return question;
              }
            }
            return await x.get(project, id);
          } finally {
            options.signal?.removeEventListener("abort", abort);
            this.#waiters.delete(connection);
            connection.close();
          }
        });
      }
      /** Stop every consumer, tail and wait this store started. */
      async close() {
        for (const consumer of this.#consumers) await consumer.close();
        for (const tail of [...this.#tails]) await tail.close();
        for (const waiter of this.#waiters) waiter.close();
      }
    };
  }
});

// src/store/failed-events.ts
function failedRecord(event, failure2, now) {
  return {
    type: event.type,
    project: event.project,
    questionId: event.questionId,
    at: event.at,
    attempts: failure2.attempts,
    error: failure2.error.replace(/[^\w .:()-]/g, "").slice(0, ERROR_MAX) || "error",
    failedAt: now
  };
}
function readFailedRecord(group, eventId, value) {
  let o;
  try {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return void 0;
    o = parsed;
  } catch {
    return void 0;
  }
  const { type, project, questionId, at, attempts, error, failedAt } = o;
  if (typeof type !== "string" || !EVENT_TYPES.includes(type) || typeof project !== "string" || !Number.isSafeInteger(questionId) || !Number.isSafeInteger(at) || !Number.isSafeInteger(attempts) || typeof error !== "string" || !Number.isSafeInteger(failedAt)) {
    return void 0;
  }
  return {
    group,
    event: { eventId, type, project, questionId, at },
    attempts,
    error,
    failedAt
  };
}
function newestFirst(events, count) {
  return [...events].sort((a, b) => b.failedAt - a.failedAt).slice(0, count);
}
var ERROR_MAX;
var init_failed_events = __esm({
  "src/store/failed-events.ts"() {
    "use strict";
    init_port();
    ERROR_MAX = 80;
  }
});

// src/store/surface-faults.ts
function faultRecord(fault, now) {
  return {
    group: fault.group.slice(0, 100),
    ...fault.channel !== void 0 && fault.channel !== "" ? { channel: fault.channel.slice(0, 100) } : {},
    error: fault.error.replace(/[^\w .:()-]/g, "").slice(0, ERROR_MAX2) || "error",
    fix: fault.fix.replace(/[\r\n\u2028\u2029]+/g, " ").slice(0, FIX_MAX),
    since: now
  };
}
function readFaultRecord(value) {
  let o;
  try {
    const parsed = typeof value === "string" ? JSON.parse(value) : value;
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return void 0;
    o = parsed;
  } catch {
    return void 0;
  }
  const { group, channel, error, fix, since } = o;
  if (typeof group !== "string" || channel !== void 0 && channel !== null && typeof channel !== "string" || typeof error !== "string" || typeof fix !== "string" || !Number.isSafeInteger(since)) {
    return void 0;
  }
  return {
    group,
    ...typeof channel === "string" && channel !== "" ? { channel } : {},
    error,
    fix,
    since
  };
}
function faultOrder(a, b) {
  if (a.group !== b.group) return a.group < b.group ? -1 : 1;
  const x = a.channel ?? "";
  const y = b.channel ?? "";
  return x === y ? 0 : x < y ? -1 : 1;
}
var ERROR_MAX2, FIX_MAX;
var init_surface_faults = __esm({
  "src/store/surface-faults.ts"() {
    "use strict";
    ERROR_MAX2 = 80;
    FIX_MAX = 300;
  }
});

// src/store/redis/failed-events.ts
function faultField(group, channel) {
  return `${group}
${channel ?? ""}`;
}
var RedisFailures;
var init_failed_events2 = __esm({
  "src/store/redis/failed-events.ts"() {
    "use strict";
    init_failed_events();
    init_surface_faults();
    init_scripts();
    RedisFailures = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      recordFailedEvent(group, event, failure2) {
        const x = this.#x;
        return x.run(async () => {
          const record2 = JSON.stringify(failedRecord(event, failure2, x.now()));
          await x.eval(
            scripts.recordFailure,
            [x.global.failed(group), x.global.failedGroups],
            [group, event.eventId, record2]
          );
        });
      }
      failedEvents(options = {}) {
        const x = this.#x;
        return x.run(async () => {
          const g = x.global;
          const groups = (await x.client.sendCommand(["SMEMBERS", g.failedGroups])).sort();
          const result = [];
          for (const group of groups) {
            const count = Number(await x.client.sendCommand(["HLEN", g.failed(group)]));
            if (count === 0) continue;
            if (options.sample === 0) {
              result.push({ group, count, sample: [] });
              continue;
            }
            const [, flat] = await x.client.sendCommand(["HSCAN", g.failed(group), "0", "COUNT", "100"]);
            const records = [];
            for (let i = 0; i + 1 < flat.length; i += 2) {
              const record2 = readFailedRecord(group, String(flat[i]), flat[i + 1]);
              if (record2) records.push(record2);
            }
            result.push({ group, count, sample: newestFirst(records, options.sample ?? 5) });
          }
          return result;
        });
      }
      replayFailedEvents(group) {
        const x = this.#x;
        return x.run(async () => {
          const g = x.global;
          const groups = group !== void 0 ? [group] : await x.client.sendCommand(["SMEMBERS", g.failedGroups]);
          let moved = 0;
          for (const name of groups)
            moved += Number(await x.eval(scripts.replayFailed, [g.failed(name), g.replay(name)], []));
          return moved;
        });
      }
      takeReplayedEvents(group, count) {
        const x = this.#x;
        return x.run(async () => {
          const reply = await x.client.sendCommand(["LPOP", x.global.replay(group), String(count)]);
          const taken = [];
          for (const value of Array.isArray(reply) ? reply : []) {
            let eventId;
            try {
              eventId = JSON.parse(String(value)).eventId;
            } catch {
              continue;
            }
            const record2 = typeof eventId === "string" ? readFailedRecord(group, eventId, String(value)) : void 0;
            if (record2) taken.push(record2);
          }
          return taken;
        });
      }
      recordSurfaceFault(fault) {
        const x = this.#x;
        return x.run(async () => {
          const record2 = faultRecord(fault, x.now());
          await x.client.sendCommand([
            "HSET",
            x.global.surfaceFaults,
            faultField(record2.group, record2.channel),
            JSON.stringify(record2)
          ]);
        });
      }
      clearSurfaceFaults(group, channels) {
        const x = this.#x;
        return x.run(async () => {
          const fields = [faultField(group, void 0), ...channels.map((channel) => faultField(group, channel))];
          await x.client.sendCommand(["HDEL", x.global.surfaceFaults, ...fields]);
        });
      }
      surfaceFaults() {
        const x = this.#x;
        return x.run(async () => {
          const reply = await x.client.sendCommand(["HGETALL", x.global.surfaceFaults]);
          const values = Array.isArray(reply) ? reply.filter((_, i) => i % 2 === 1) : Object.values(reply ?? {});
          return values.map((value) => readFaultRecord(String(value))).filter((fault) => fault !== void 0).sort(faultOrder);
        });
      }
    };
  }
});

// src/store/redis/leases.ts
var RedisLeases;
var init_leases = __esm({
  "src/store/redis/leases.ts"() {
    "use strict";
    init_scripts();
    RedisLeases = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      acquireLease(name, owner, ms) {
        const x = this.#x;
        return x.run(
          async () => Number(await x.eval(scripts.lease, [x.global.lease(name)], [owner, Math.max(1, ms)])) === 1
        );
      }
      releaseLease(name, owner) {
        const x = this.#x;
        return x.run(async () => {
          await x.eval(scripts.releaseLease, [x.global.lease(name)], [owner]);
        });
      }
      seizeLease(name, owner, ms) {
        const x = this.#x;
        return x.run(async () => {
          await x.client.sendCommand(["SET", x.global.lease(name), owner, "PX", String(Math.max(1, ms))]);
        });
      }
    };
  }
});

// src/store/redis/pooled-connection.ts
async function connectPool(size, open) {
  if (size <= 1) return open();
  const opened = await Promise.allSettled(Array.from({ length: size }, open));
  const members = opened.flatMap((result) => result.status === "fulfilled" ? [result.value] : []);
  const failed = opened.find((result) => result.status === "rejected");
  if (failed) {
    for (const member of members) member.close();
    throw failed.reason;
  }
  return new PooledConnection(members);
}
var POOL_SIZE, PooledConnection;
var init_pooled_connection = __esm({
  "src/store/redis/pooled-connection.ts"() {
    "use strict";
    init_connection();
    POOL_SIZE = 2;
    PooledConnection = class {
      isCluster = false;
      #members;
      #turn = 0;
      constructor(members) {
        this.#members = members;
      }
      get isOpen() {
        return this.#members.some((member) => member.isOpen);
      }
      /** Ready when every open member is: one reconnecting means the server was lost, and readiness waits for it. */
      get isReady() {
        const open = this.#members.filter((member) => member.isOpen);
        return open.length > 0 && open.every((member) => member.isReady);
      }
      onReady(listener) {
        const stops = this.#members.map((member) => member.onReady(listener));
        return () => {
          for (const stop of stops) stop();
        };
      }
      /** The next member in turn that takes commands; if none does, the one whose turn it is (it fails them). */
      #member() {
        const count = this.#members.length;
        const first = this.#turn;
        this.#turn = (first + 1) % count;
        for (let i = 0; i < count; i++) {
          const member = this.#members[(first + i) % count];
          if (member.isReady) return member;
        }
        return this.#members[first];
      }
      sendCommand(args) {
        return this.#member().sendCommand(args);
      }
      sendAsking(args) {
        return askThen(this.#member(), args);
      }
      duplicate() {
        return this.#members[0].duplicate();
      }
      subscribe(channel, listener) {
        return this.#members[0].subscribe(channel, listener);
      }
      close() {
        for (const member of this.#members) member.close();
      }
    };
  }
});

// src/store/tag-collision-error.ts
var TagCollisionError;
var init_tag_collision_error = __esm({
  "src/store/tag-collision-error.ts"() {
    "use strict";
    TagCollisionError = class extends Error {
      constructor(tag) {
        super(`Project key tag ${tag} already belongs to another project; set ASK_LATER_PROJECT`);
        this.tag = tag;
      }
      tag;
      name = "TagCollisionError";
    };
  }
});

// src/store/redis/questions.ts
var RedisQuestions;
var init_questions = __esm({
  "src/store/redis/questions.ts"() {
    "use strict";
    init_question();
    init_drafts();
    init_shared();
    init_tag_collision_error();
    init_record();
    init_scripts();
    RedisQuestions = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      park(project, spec) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          await x.registerProject(keys);
          const now = x.now();
          const expiresAt = expiryOf(spec, now);
          const record2 = specRecord(spec);
          const id = Number(
            await x.eval(
              scripts.park,
              [keys.meta, keys.status("pending"), keys.expiry, keys.events, keys.inboxIndex],
              [
                keys.base,
                project,
                record2.json,
                now,
                expiresAt ?? "",
                record2.version,
                x.maxLen,
                spec.isBlocking ? "1" : "0",
                INDEX_VERSION
              ]
            )
          );
          if (id === PARK_TAG_COLLISION) throw new TagCollisionError(keys.tag);
          await x.hint(keys);
          return parkedQuestion(project, id, spec, now);
        });
      }
      get(project, id) {
        return this.#x.run(() => this.#x.get(project, id));
      }
      /** One project's questions in the filter's states, in no particular order. */
      async #list(project, filter) {
        const x = this.#x;
        const keys = x.keys(project);
        const statuses = filter.status ?? QUESTION_STATUSES;
        const idLists = await Promise.all(
          statuses.map((status) => x.client.sendCommand(["ZRANGE", keys.status(status), "0", "-1"]))
        );
        const ids = idLists.flat();
        const hashes = await Promise.all(ids.map((id) => x.hash(keys.question(Number(id)))));
        const questions = readEach(
          hashes.keys(),
          (i) => {
            const hash = hashes[i];
            return hash && x.fromHash(hash, `${project}#${ids[i]}`);
          },
          x.options.onCorruptRecord
        );
        return questions.filter((q) => filter.blocking === void 0 || q.isBlocking === filter.blocking);
      }
      list(project, filter = {}) {
        return this.#x.run(async () => (await this.#list(project, filter)).sort(byBlockingThenId));
      }
      listAcross(projects, filter = {}) {
        return this.#x.run(async () => {
          const lists = await Promise.all([...new Set(projects)].map((project) => this.#list(project, filter)));
          return lists.flat().sort(byBlockingThenAge);
        });
      }
      knownProjects() {
        return this.#x.run(async () => [...(await this.#x.projects()).values()]);
      }
      projectByTag(tag) {
        return this.#x.run(async () => {
          const reply = await this.#x.client.sendCommand(["HGET", this.#x.global.projects, tag]);
          return typeof reply === "string" ? reply : void 0;
        });
      }
      recordMessage(project, id, ref) {
        return this.#x.run(async () => {
          const reply = await this.#x.eval(
            scripts.recordMessage,
            [this.#x.keys(project).question(id)],
            [messageField(ref.platform, ref.channel), ref.messageId]
          );
          return Number(reply) === 1;
        });
      }
    };
  }
});

// src/store/corrupt-token-error.ts
var CorruptTokenError;
var init_corrupt_token_error = __esm({
  "src/store/corrupt-token-error.ts"() {
    "use strict";
    CorruptTokenError = class extends Error {
      constructor(tokenId, problem) {
        super(`Stored token ${tokenId} is unreadable: ${problem}`);
        this.tokenId = tokenId;
        this.problem = problem;
      }
      tokenId;
      problem;
      name = "CorruptTokenError";
    };
  }
});

// src/store/token-record.ts
function tokenRecordJson(record2) {
  return JSON.stringify({
    v: 1,
    id: record2.id,
    name: record2.name,
    hash: record2.hash,
    patterns: record2.patterns,
    createdAt: record2.createdAt,
    ...record2.expiresAt !== void 0 ? { expiresAt: record2.expiresAt } : {},
    ...record2.web === true ? { web: true } : {}
  });
}
function readTokenRecord(json, id, lastUsedAt) {
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    throw new CorruptTokenError(id, "the record is not JSON");
  }
  const fields = value !== null && typeof value === "object" ? value : {};
  const field = (name, ok) => {
    const v = fields[name];
    if (!ok(v)) throw new CorruptTokenError(id, `\`${name}\` is missing or of the wrong type`);
    return v;
  };
  const isString2 = (v) => typeof v === "string" && v.length > 0;
  const isPatterns = (v) => Array.isArray(v) && v.length > 0 && v.every(isString2);
  const isTime = (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
  const expiresAt = fields.expiresAt === void 0 ? void 0 : field("expiresAt", isTime);
  const web = fields.web === void 0 ? false : field("web", (v) => typeof v === "boolean");
  return {
    id: field("id", isString2),
    name: field("name", isString2),
    hash: field("hash", (v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v)),
    patterns: field("patterns", isPatterns),
    createdAt: field("createdAt", isTime),
    ...expiresAt !== void 0 ? { expiresAt } : {},
    ...web ? { web: true } : {},
    ...lastUsedAt !== void 0 && Number.isSafeInteger(lastUsedAt) ? { lastUsedAt } : {}
  };
}
var init_token_record = __esm({
  "src/store/token-record.ts"() {
    "use strict";
    init_corrupt_token_error();
  }
});

// src/store/redis/tokens.ts
var RedisTokenStore;
var init_tokens = __esm({
  "src/store/redis/tokens.ts"() {
    "use strict";
    init_token_record();
    init_record();
    init_scripts();
    RedisTokenStore = class {
      #deps;
      constructor(deps) {
        this.#deps = deps;
      }
      async create(record2) {
        const { key } = this.#deps;
        const reply = await this.#deps.eval(scripts.createToken, [key], [record2.id, record2.name, tokenRecordJson(record2)]);
        return Number(reply) === 1;
      }
      async get(id) {
        const { key } = this.#deps;
        const [record2, used] = await Promise.all([
          this.#deps.command(["HGET", key, `t:${id}`]),
          this.#deps.command(["HGET", key, `u:${id}`])
        ]);
        if (typeof record2 !== "string") return void 0;
        return readTokenRecord(record2, id, typeof used === "string" ? Number(used) : void 0);
      }
      async list() {
        const reply = await this.#deps.command(["HGETALL", this.#deps.key]);
        const fields = new Map(Object.entries(hashFromFlat(reply)));
        const records = [];
        for (const [field, value] of fields) {
          if (!field.startsWith("t:")) continue;
          const id = field.slice(2);
          const used = fields.get(`u:${id}`);
          records.push(readTokenRecord(value, id, used === void 0 ? void 0 : Number(used)));
        }
        return records.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
      }
      async revoke(nameOrId) {
        const reply = await this.#deps.eval(scripts.revokeToken, [this.#deps.key], [nameOrId]);
        return typeof reply === "string" ? readTokenRecord(reply, nameOrId) : void 0;
      }
      async touch(id, at) {
        await this.#deps.command(["HSET", this.#deps.key, `u:${id}`, String(at)]);
      }
    };
  }
});

// src/store/redis/transitions.ts
var PURGE_BATCH, RedisTransitions;
var init_transitions = __esm({
  "src/store/redis/transitions.ts"() {
    "use strict";
    init_delivery_note();
    init_reply();
    init_decided_index();
    init_shared();
    init_record();
    init_scripts();
    PURGE_BATCH = 500;
    RedisTransitions = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      answer(project, id, reply, by) {
        const x = this.#x;
        return x.run(async () => {
          const question = await x.spec(project, id);
          if (!question) return { kind: "unknown" };
          const now = x.now();
          const { answer, entryLength: size } = measuredAnswerOf(question, reply, { by, at: now });
          const keys = x.keys(project);
          const result = await x.eval(
            scripts.answer,
            [
              keys.question(id),
              keys.drafts(id),
              keys.status("pending"),
              keys.status("answered"),
              keys.outbox,
              keys.expiry,
              keys.events,
              keys.inboxIndex,
              keys.closedIndex,
              keys.answeredIndex,
              keys.decisionsQueue
            ],
            [JSON.stringify(answer), now, size, x.maxLen, encodeDocuments(documentsOf(question))]
          );
          if (Number(result[0]) === TransitionCode.done) {
            await x.hint(keys);
            const messages = messagesFromHash(hashFromFlat(result.slice(1)), `${project}#${id}`);
            return {
              kind: "won",
              question: Object.assign({}, question, { status: "answered", answer, messages })
            };
          }
          return this.#refused(project, id, result, (q) => ({ kind: "won", question: q }));
        });
      }
      /** What answer-11 or close-10 answered, as the port's result (a question past its expiry is expired first). */
      async #refused(project, id, reply, onDone) {
        const x = this.#x;
        const where = `${project}#${id}`;
        switch (Number(reply[0])) {
          case TransitionCode.done:
            return onDone(x.read(reply[1], where));
          case TransitionCode.alreadyAnswered:
            return { kind: "already-answered", question: x.read(reply[1], where) };
          case TransitionCode.notPending:
            return { kind: "not-pending", question: x.read(reply[1], where) };
          case TransitionCode.dueToExpire: {
            await this.#expireOne(project, id);
            const question = await x.get(project, id);
            return question ? { kind: "not-pending", question } : { kind: "unknown" };
          }
          default:
            return { kind: "unknown" };
        }
      }
      #close(project, id, target, by) {
        const x = this.#x;
        return x.run(async () => {
          const now = x.now();
          const closure = { at: now, ...by ? { by } : {} };
          let size = 0;
          if (target === "dismissed") {
            const question = await x.spec(project, id);
            if (!question) return { kind: "unknown" };
            size = deliveryEntryLength(Object.assign({}, question, { status: "dismissed", closure }));
          }
          const keys = x.keys(project);
          const reply = await x.eval(
            scripts.close,
            [
              keys.question(id),
              keys.drafts(id),
              keys.status("pending"),
              keys.status(target),
              keys.outbox,
              keys.expiry,
              keys.done,
              keys.events,
              keys.inboxIndex,
              keys.closedIndex
            ],
            [target, JSON.stringify(closure), now, size, x.maxLen]
          );
          if (Number(reply[0]) === TransitionCode.done) await x.hint(keys);
          return this.#refused(project, id, reply, (q) => ({ kind: "done", question: q }));
        });
      }
      cancel(project, id) {
        return this.#close(project, id, "cancelled");
      }
      dismiss(project, id, by) {
        return this.#close(project, id, "dismissed", by);
      }
      async #expireOne(project, id) {
        const x = this.#x;
        const question = await x.spec(project, id);
        const now = x.now();
        const closure = { at: now };
        const size = question ? deliveryEntryLength(Object.assign({}, question, { status: "expired", closure })) : 0;
        const keys = x.keys(project);
        const code = Number(
          await x.eval(
            scripts.expire,
            [
              keys.question(id),
              keys.drafts(id),
              keys.status("pending"),
              keys.status("expired"),
              keys.outbox,
              keys.expiry,
              keys.events,
              keys.inboxIndex,
              keys.closedIndex
            ],
            [id, JSON.stringify(closure), now, size, x.maxLen]
          )
        );
        if (code === ExpireCode.expired) await x.hint(keys);
        return code === ExpireCode.expired;
      }
      remind(project, id, ordinal) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const code = Number(
            await x.eval(scripts.remind, [keys.question(id), keys.events], [id, ordinal, x.now(), x.maxLen])
          );
          if (code === RemindCode.unknown) return { kind: "unknown" };
          if (code === RemindCode.reminded) await x.hint(keys);
          const question = await x.get(project, id);
          if (!question) return { kind: "unknown" };
          if (code === RemindCode.reminded) return { kind: "reminded", question };
          return code === RemindCode.already ? { kind: "already", question } : { kind: "not-pending", question };
        });
      }
      expireDue() {
        const x = this.#x;
        return x.run(async () => {
          let expired = 0;
          for (const project of (await x.projects()).values()) {
            const due = await x.client.sendCommand([
              "ZRANGEBYSCORE",
              x.keys(project).expiry,
              "-inf",
              String(x.now())
            ]);
            for (const id of due) if (await this.#expireOne(project, Number(id))) expired++;
          }
          return expired;
        });
      }
      purgeExpired() {
        const x = this.#x;
        return x.run(async () => {
          const cutoff = x.now() - (x.options.retentionMs ?? RETENTION_MS);
          let dropped = 0;
          for (const project of (await x.projects()).values()) {
            const keys = x.keys(project);
            for (; ; ) {
              const n = Number(
                await x.evalSettled(
                  scripts.purge,
                  [
                    keys.done,
                    keys.closedIndex,
                    keys.answeredIndex,
                    keys.status("delivered"),
                    keys.status("cancelled"),
                    keys.status("dismissed"),
                    keys.status("expired"),
                    keys.decisions,
                    keys.decisionsQueue
                  ],
                  [keys.base, cutoff, PURGE_BATCH, x.missing]
                )
              );
              dropped += n;
              if (n < PURGE_BATCH) break;
            }
          }
          return dropped;
        });
      }
    };
  }
});

// src/store/redis/views.ts
function lexRange(query, tag, cursor) {
  if (query.view === "pending") {
    const filterLow = query.blocking === false ? "1" : "0";
    const high2 = query.blocking === true ? "(1" : "+";
    const low2 = cursor !== void 0 && cursor.key >= filterLow ? `${tag > cursor.tag ? "[" : "("}${cursor.key}` : query.blocking === void 0 ? "-" : `[${filterLow}`;
    return [low2, high2];
  }
  const low = query.since === void 0 ? "-" : `[${closedSinceKey(query.since)}`;
  const high = cursor === void 0 ? "+" : `${tag < cursor.tag ? "[" : "("}${cursor.key}`;
  return [low, high];
}
function countsOf(reply) {
  return {
    blocking: Number(reply[0] ?? 0),
    canWait: Number(reply[1] ?? 0),
    closed: Number(reply[2] ?? 0),
    answered: Number(reply[3] ?? 0)
  };
}
var RedisViews;
var init_views = __esm({
  "src/store/redis/views.ts"() {
    "use strict";
    init_question();
    init_paging();
    init_shared();
    init_scripts();
    RedisViews = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      /**
       * Every project's view counts, its indexes first brought in step with its status sets (views-10: built for a
       * project parked before they existed, rebuilt after an older version of ask-later wrote to it), one script per
       * project, all in flight at once.
       */
      async #views(projects) {
        const entries = await Promise.all(
          projects.map(async (keys) => [keys.project, await this.#checkViews(keys)])
        );
        return new Map(entries);
      }
      async #checkViews(keys) {
        const reply = await this.#x.evalSettled(
          scripts.views,
          [
            keys.meta,
            keys.inboxIndex,
            keys.closedIndex,
            keys.answeredIndex,
            ...QUESTION_STATUSES.map((status) => keys.status(status))
          ],
          [keys.base, INDEX_VERSION, this.#x.missing]
        );
        return countsOf(reply);
      }
      /** One project's part of a page (view-page-10): its counts, how many of the range there are, the range's top. */
      async #pagePart(keys, view, [low, high], limit) {
        const reply = await this.#x.evalSettled(
          scripts.viewPage,
          [
            keys.meta,
            keys.inboxIndex,
            keys.closedIndex,
            keys.answeredIndex,
            ...QUESTION_STATUSES.map((status) => keys.status(status))
          ],
          [
            keys.base,
            INDEX_VERSION,
            this.#x.missing,
            view === "pending" ? 2 : view === "closed" ? 3 : 4,
            low,
            high,
            view === "pending" ? "asc" : "desc",
            limit
          ]
        );
        return { counts: countsOf(reply), inRange: Number(reply[5] ?? 0), members: reply.slice(6).map(String) };
      }
      pageAcross(projects, query) {
        const x = this.#x;
        return x.run(async () => {
          const all = [...new Set(projects)].map((project) => x.keys(project));
          const { view } = query;
          const limit = Math.max(1, Math.trunc(query.limit));
          const cursor = parseCursor(view, query.after);
          const wanted = limit + 1;
          const few = Math.min(wanted, Math.ceil(wanted / Math.max(1, all.length)) + 1);
          const parts = await Promise.all(
            all.map(async (keys) => {
              const range = lexRange(query, keys.tag, cursor);
              return { keys, range, ...await this.#pagePart(keys, view, range, few) };
            })
          );
          const mergedOf = () => sortInView(
            view,
            parts.flatMap(({ keys, members }) => members.map((key) => ({ key, tag: keys.tag, keys })))
          );
          let merged = mergedOf();
          const top = new Set(merged.slice(0, wanted).map((entry) => `${entry.tag}
${entry.key}`));
          const further = parts.filter(
            (part) => part.members.length === few && few < wanted && part.members.every((key) => top.has(`${part.keys.tag}
${key}`))
          );
          if (further.length > 0) {
            await Promise.all(
              further.map(async (part) => {
                part.members = (await this.#pagePart(part.keys, view, part.range, wanted)).members;
              })
            );
            merged = mergedOf();
          }
          const taken = merged.slice(0, limit);
          const last = taken.at(-1);
          const follows = merged.length > limit && last !== void 0;
          const hashes = await Promise.all(taken.map((entry) => x.hash(entry.keys.question(Number(entry.key.slice(-12))))));
          const changed = /* @__PURE__ */ new Set();
          const questions = readEach(
            hashes.keys(),
            (i) => {
              const hash = hashes[i];
              const entry = taken[i];
              if (!entry) return void 0;
              if (!hash) {
                changed.add(entry.keys);
                return void 0;
              }
              const question = x.fromHash(hash, `${entry.keys.project}#${entry.key.slice(-12)}`);
              if (viewKey(view, question) === entry.key) return question;
              changed.add(entry.keys);
              return void 0;
            },
            x.options.onCorruptRecord
          );
          const remaining = parts.reduce((sum, part) => sum + part.inRange, 0) - taken.length;
          const counts = new Map(parts.map(({ keys, counts: each }) => [keys.project, each]));
          if (changed.size > 0) for (const [project, each] of await this.#views([...changed])) counts.set(project, each);
          return follows ? { questions, next: formatCursor(last), remaining, counts } : { questions, remaining: 0, counts };
        });
      }
      countAcross(projects) {
        return this.#x.run(() => this.#views([...new Set(projects)].map((project) => this.#x.keys(project))));
      }
      listPage(project, query) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const wanted = query.status ?? QUESTION_STATUSES;
          const cursor = parseListCursor(query.after);
          const reply = await x.eval(
            scripts.listPage,
            QUESTION_STATUSES.map((status) => keys.status(status)),
            [
              keys.base,
              QUESTION_STATUSES.map((status) => wanted.includes(status) ? "1" : "0").join(""),
              query.blocking === void 0 ? "" : query.blocking ? "1" : "0",
              Math.max(1, Math.trunc(query.limit)),
              cursor === void 0 ? "" : String(cursor.blockingFirst),
              cursor === void 0 ? "" : String(cursor.id)
            ]
          );
          const records = [];
          for (let i = 1; i + 1 < reply.length; i += 2) records.push(i);
          const questions = readEach(
            records,
            (i) => x.read(reply[i + 1], `${project}#${reply[i]}`),
            x.options.onCorruptRecord
          );
          const remaining = Number(reply[0]);
          const lastId = reply.length >= 3 ? Number(reply[reply.length - 2]) : void 0;
          const last = lastId === void 0 ? void 0 : questions.find((q) => q.id === lastId);
          return remaining > 0 && last !== void 0 ? { questions, next: formatListCursor(last), remaining } : { questions, remaining };
        });
      }
      countQuestions(project) {
        const x = this.#x;
        return x.run(async () => {
          const keys = x.keys(project);
          const reply = await x.eval(
            scripts.count,
            QUESTION_STATUSES.map((status) => keys.status(status)),
            [keys.base]
          );
          return Object.fromEntries(
            QUESTION_STATUSES.map((status, i) => [
              status,
              { blocking: Number(reply[2 * i] ?? 0), canWait: Number(reply[2 * i + 1] ?? 0) }
            ])
          );
        });
      }
    };
  }
});

// src/store/redis/reconnecting-connection.ts
var reconnecting_connection_exports = {};
__export(reconnecting_connection_exports, {
  RECONNECT_MAX_MS: () => RECONNECT_MAX_MS,
  connectReconnecting: () => connectReconnecting
});
async function connectReconnecting(url, connectTimeoutMs) {
  const connection = new ReconnectingConnection(url, connectTimeoutMs, async () => void 0);
  await connection.start();
  return connection;
}
var RECONNECT_MAX_MS, ClientOfflineError, ClientClosedError, ReconnectingConnection;
var init_reconnecting_connection = __esm({
  "src/store/redis/reconnecting-connection.ts"() {
    "use strict";
    init_resp_connection();
    RECONNECT_MAX_MS = 500;
    ClientOfflineError = class extends Error {
      name = "ClientOfflineError";
    };
    ClientClosedError = class extends Error {
      name = "ClientClosedError";
    };
    ReconnectingConnection = class _ReconnectingConnection {
      isCluster = false;
      #url;
      #connectTimeoutMs;
      /** Run on every new connection before it takes commands (a subscription subscribes there). */
      #prepare;
      #readyListeners = /* @__PURE__ */ new Set();
      #current;
      #closed = false;
      #retries = 0;
      #timer;
      constructor(url, connectTimeoutMs, prepare) {
        this.#url = url;
        this.#connectTimeoutMs = connectTimeoutMs;
        this.#prepare = prepare;
      }
      /**
       * Make a connection and prepare it; a failure closes it and is thrown. `answering`: first check that the server
       * answers PING (it may still be loading its data).
       */
      async #connect(answering = false) {
        let connection;
        const options = {
          connectTimeoutMs: this.#connectTimeoutMs,
          onClose: () => {
            if (connection !== void 0) this.#lost(connection);
          }
        };
        connection = await connectResp(this.#url, options);
        try {
          if (answering) await connection.sendCommand(["PING"]);
          await this.#prepare(connection);
        } catch (error) {
          connection.close();
          throw error;
        }
        if (!connection.isOpen) throw new ClientOfflineError("the connection closed while it was being made");
        return connection;
      }
      /** The first connection: its failure is the caller's. */
      async start() {
        this.#current = await this.#connect();
      }
      #lost(connection) {
        if (connection !== this.#current) return;
        this.#current = void 0;
        this.#schedule();
      }
      #schedule() {
        if (this.#closed || this.#timer !== void 0) return;
        const delay3 = Math.min(50 * 2 ** this.#retries, RECONNECT_MAX_MS);
        this.#retries++;
        this.#timer = setTimeout(() => {
          this.#timer = void 0;
          void this.#reconnect();
        }, delay3);
      }
      async #reconnect() {
        if (this.#closed) return;
        let connection;
        try {
          connection = await this.#connect(true);
        } catch {
          this.#schedule();
          return;
        }
        if (this.#closed) {
          connection.close();
          return;
        }
        if (!connection.isOpen) {
          this.#schedule();
          return;
        }
        this.#current = connection;
        this.#retries = 0;
        for (const listener of [...this.#readyListeners]) listener();
      }
      get isOpen() {
        return !this.#closed;
      }
      get isReady() {
        return !this.#closed && this.#current?.isOpen === true;
      }
      onReady(listener) {
        this.#readyListeners.add(listener);
        return () => this.#readyListeners.delete(listener);
      }
      sendCommand(args) {
        if (this.#closed) return Promise.reject(new ClientClosedError("the connection was closed"));
        const current = this.#current;
        if (current === void 0 || !current.isOpen) {
          return Promise.reject(new ClientOfflineError("the connection to Redis is being made again"));
        }
        return current.sendCommand(args);
      }
      /** A connection of its own, made like this one: while the server is away it fails at once. */
      duplicate() {
        return connectReconnecting(this.#url, this.#connectTimeoutMs);
      }
      async subscribe(channel, listener) {
        let subscription;
        const subscribed = new _ReconnectingConnection(this.#url, this.#connectTimeoutMs, async (connection) => {
          await connection.subscribeOnly(channel, (message) => listener.onMessage(message));
          if (subscription !== void 0) queueMicrotask(() => listener.onReady?.());
        });
        await subscribed.start();
        subscription = subscribed;
        listener.onReady?.();
        return {
          get isOpen() {
            return subscribed.isOpen;
          },
          close: () => subscribed.close()
        };
      }
      close() {
        this.#closed = true;
        clearTimeout(this.#timer);
        this.#timer = void 0;
        this.#current?.close();
        this.#current = void 0;
        this.#readyListeners.clear();
      }
    };
  }
});

// src/store/redis/redis-store.ts
var redis_store_exports = {};
__export(redis_store_exports, {
  RETENTION_MS: () => RETENTION_MS,
  RedisStore: () => RedisStore,
  openRedisStore: () => openRedisStore,
  toStoreError: () => toStoreError
});
async function openRedisStore(options) {
  const timeout = options.connectTimeoutMs ?? 2e3;
  try {
    const connector = await nodeConnector(options.connection ?? "reconnecting", timeout);
    return new RedisStore(await connectRedis(options.url, connector), options);
  } catch (error) {
    throw new StoreUnavailableError({ cause: error });
  }
}
async function nodeConnector(kind, timeoutMs) {
  if (kind === "minimal") {
    const { connectResp: connectResp2 } = await Promise.resolve().then(() => (init_resp_connection(), resp_connection_exports));
    return (url) => connectResp2(url, { connectTimeoutMs: timeoutMs });
  }
  const { connectReconnecting: connectReconnecting2 } = await Promise.resolve().then(() => (init_reconnecting_connection(), reconnecting_connection_exports));
  return (url) => connectPool(POOL_SIZE, () => connectReconnecting2(url, timeoutMs));
}
var RedisStore;
var init_redis_store = __esm({
  "src/store/redis/redis-store.ts"() {
    "use strict";
    init_store_unavailable_error();
    init_trail();
    init_cluster_connection();
    init_context();
    init_decisions();
    init_delivery();
    init_drafts2();
    init_events();
    init_failed_events2();
    init_leases();
    init_pooled_connection();
    init_questions();
    init_tokens();
    init_transitions();
    init_views();
    init_shared();
    init_context();
    RedisStore = class {
      #x;
      #questions;
      #views;
      #drafts;
      #transitions;
      #delivery;
      #events;
      #leases;
      #failures;
      #decisions;
      constructor(client, options) {
        const x = new RedisContext(client, options);
        this.#x = x;
        this.#questions = new RedisQuestions(x);
        this.#views = new RedisViews(x);
        this.#drafts = new RedisDrafts(x);
        this.#transitions = new RedisTransitions(x);
        this.#delivery = new RedisDelivery(x);
        this.#events = new RedisEvents(x);
        this.#leases = new RedisLeases(x);
        this.#failures = new RedisFailures(x);
        this.#decisions = new RedisDecisions(this.#x, (project, query) => trailPage(this, [project], query));
      }
      // Questions (questions.ts)
      park(project, spec) {
        return this.#questions.park(project, spec);
      }
      get(project, id) {
        return this.#questions.get(project, id);
      }
      list(project, filter) {
        return this.#questions.list(project, filter);
      }
      listAcross(projects, filter) {
        return this.#questions.listAcross(projects, filter);
      }
      knownProjects() {
        return this.#questions.knownProjects();
      }
      projectByTag(tag) {
        return this.#questions.projectByTag(tag);
      }
      recordMessage(project, id, ref) {
        return this.#questions.recordMessage(project, id, ref);
      }
      // Views (views.ts)
      pageAcross(projects, query) {
        return this.#views.pageAcross(projects, query);
      }
      countAcross(projects) {
        return this.#views.countAcross(projects);
      }
      listPage(project, query) {
        return this.#views.listPage(project, query);
      }
      findDecisions(project, query) {
        return trailPage(this, [project], query);
      }
      similarDecisions(project, items, options) {
        return this.#decisions.similarDecisions(project, items, options);
      }
      countQuestions(project) {
        return this.#views.countQuestions(project);
      }
      // Drafts (drafts.ts)
      saveDraft(project, id, person, change) {
        return this.#drafts.saveDraft(project, id, person, change);
      }
      getDraft(project, id, person, member) {
        return this.#drafts.getDraft(project, id, person, member);
      }
      // Transitions (transitions.ts)
      answer(project, id, reply, by) {
        return this.#transitions.answer(project, id, reply, by);
      }
      cancel(project, id) {
        return this.#transitions.cancel(project, id);
      }
      dismiss(project, id, by) {
        return this.#transitions.dismiss(project, id, by);
      }
      remind(project, id, ordinal) {
        return this.#transitions.remind(project, id, ordinal);
      }
      expireDue() {
        return this.#transitions.expireDue();
      }
      purgeExpired() {
        return this.#transitions.purgeExpired();
      }
      // Delivery (delivery.ts)
      claimUndelivered(project, options) {
        return this.#delivery.claimUndelivered(project, options);
      }
      confirmClaim(project, claim, ids) {
        return this.#delivery.confirmClaim(project, claim, ids);
      }
      waitingOutcomes(project, options) {
        return this.#delivery.waitingOutcomes(project, options);
      }
      releaseClaim(project, claim, ids) {
        return this.#delivery.releaseClaim(project, claim, ids);
      }
      markDelivered(project, id, via) {
        return this.#delivery.markDelivered(project, id, via);
      }
      // Events (events.ts)
      consumer(group, consumerName, options) {
        return this.#events.consumer(group, consumerName, options);
      }
      tail() {
        return this.#events.tail();
      }
      watch(project) {
        return this.#events.watch(project);
      }
      waitWhilePending(project, id, options) {
        return this.#events.waitWhilePending(project, id, options);
      }
      // Leases (leases.ts)
      acquireLease(name, owner, ms) {
        return this.#leases.acquireLease(name, owner, ms);
      }
      releaseLease(name, owner) {
        return this.#leases.releaseLease(name, owner);
      }
      seizeLease(name, owner, ms) {
        return this.#leases.seizeLease(name, owner, ms);
      }
      // Failures (failed-events.ts)
      recordFailedEvent(group, event, failure2) {
        return this.#failures.recordFailedEvent(group, event, failure2);
      }
      failedEvents(options) {
        return this.#failures.failedEvents(options);
      }
      replayFailedEvents(group) {
        return this.#failures.replayFailedEvents(group);
      }
      takeReplayedEvents(group, count) {
        return this.#failures.takeReplayedEvents(group, count);
      }
      recordSurfaceFault(fault) {
        return this.#failures.recordSurfaceFault(fault);
      }
      clearSurfaceFaults(group, channels) {
        return this.#failures.clearSurfaceFaults(group, channels);
      }
      surfaceFaults() {
        return this.#failures.surfaceFaults();
      }
      // Tokens (tokens.ts)
      tokens() {
        const x = this.#x;
        return new RedisTokenStore({
          key: x.global.tokens,
          command: (args) => x.run(() => x.client.sendCommand(args)),
          eval: (script, keys, args) => x.run(() => x.eval(script, keys, args))
        });
      }
      // The connection
      /** Every project that ever parked: tag → project name. */
      projects() {
        return this.#x.projects();
      }
      ping() {
        return this.#x.run(async () => {
          await this.#x.client.sendCommand(["PING"]);
        });
      }
      whenReady(options) {
        return this.#x.connections.whenReady(options);
      }
      async close() {
        await this.#events.close();
        this.#x.client.close();
      }
    };
  }
});

// src/store/sqlite/engine-missing-error.ts
var SqliteEngineMissingError;
var init_engine_missing_error = __esm({
  "src/store/sqlite/engine-missing-error.ts"() {
    "use strict";
    SqliteEngineMissingError = class extends Error {
      name = "SqliteEngineMissingError";
      constructor(options) {
        super(
          "the embedded store needs better-sqlite3, which this copy of ask-later does not carry: start `ask-later serve` once from an npm install of ask-later (it records where its better-sqlite3 is, next to the store), or set REDIS_URL",
          options
        );
      }
    };
  }
});

// src/store/sqlite/engine.ts
function loadSqliteEngine(directory) {
  const require2 = (0, import_node_module.createRequire)(__askLaterUrl);
  let own;
  try {
    own = (0, import_node_path4.dirname)(require2.resolve(`${MODULE}/package.json`));
  } catch {
    own = void 0;
  }
  const recordPath = directory === void 0 ? void 0 : (0, import_node_path4.join)(directory, ENGINE_FILE);
  if (own !== void 0) {
    const engine = require2(MODULE);
    if (recordPath !== void 0) record(recordPath, own);
    return engine;
  }
  const recorded = recordPath === void 0 ? void 0 : readRecord(recordPath);
  if (recorded === void 0) throw new SqliteEngineMissingError();
  try {
    return require2(recorded.module);
  } catch (error) {
    throw new SqliteEngineMissingError({ cause: error });
  }
}
function readRecord(path) {
  let data;
  try {
    data = JSON.parse((0, import_node_fs3.readFileSync)(path, "utf8"));
  } catch {
    return void 0;
  }
  const module2 = data?.module;
  return typeof module2 === "string" && (0, import_node_path4.isAbsolute)(module2) ? { module: module2 } : void 0;
}
function record(path, module2) {
  if (readRecord(path)?.module === module2) return;
  const text = `${JSON.stringify({ module: module2 }, null, 2)}
`;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    (0, import_node_fs3.writeFileSync)(temporary, text, { mode: 384 });
    (0, import_node_fs3.renameSync)(temporary, path);
  } catch {
  }
}
var import_node_fs3, import_node_module, import_node_path4, ENGINE_FILE, MODULE;
var init_engine = __esm({
  "src/store/sqlite/engine.ts"() {
    "use strict";
    import_node_fs3 = require("node:fs");
    import_node_module = require("node:module");
    import_node_path4 = require("node:path");
    init_engine_missing_error();
    ENGINE_FILE = "sqlite-engine.json";
    MODULE = "better-sqlite3";
  }
});

// src/store/sqlite/driver.ts
function nodeSqlite() {
  const getBuiltin = process.getBuiltinModule;
  try {
    return getBuiltin?.call(process, "node:sqlite");
  } catch {
    return void 0;
  }
}
function defaultEngine() {
  return nodeSqlite() ? { engine: "node:sqlite", why: `built into Node ${process.versions.node}` } : { engine: "better-sqlite3", why: `Node ${process.versions.node} has no node:sqlite (22.13 and later do)` };
}
function openDatabase(path, options) {
  const engine = options.engine ?? defaultEngine().engine;
  if (engine === "node:sqlite") {
    const sqlite = nodeSqlite();
    if (!sqlite) throw new Error(`node:sqlite is not available in Node ${process.versions.node}`);
    const db2 = new sqlite.DatabaseSync(path, { readOnly: options.readOnly ?? false, timeout: options.busyTimeoutMs });
    return {
      engine,
      prepare: (sql) => db2.prepare(sql),
      exec: (sql) => db2.exec(sql),
      get inTransaction() {
        return db2.isTransaction;
      },
      get open() {
        return db2.isOpen;
      },
      close: () => db2.close()
    };
  }
  const Engine = loadSqliteEngine(options.directory);
  const db = new Engine(path, {
    timeout: options.busyTimeoutMs,
    ...options.readOnly ? { readonly: true, fileMustExist: true } : {}
  });
  return {
    engine,
    prepare: (sql) => db.prepare(sql),
    exec: (sql) => {
      db.exec(sql);
    },
    get inTransaction() {
      return db.inTransaction;
    },
    get open() {
      return db.open;
    },
    close: () => {
      db.close();
    }
  };
}
function sqliteErrorCode(error) {
  if (!(error instanceof Error)) return void 0;
  const { code, errcode } = error;
  if (typeof code === "string" && code.startsWith("SQLITE_")) return code;
  if (typeof errcode === "number") return PRIMARY_CODES[errcode & 255] ?? `SQLITE_${errcode & 255}`;
  if (/database (connection )?is not open/i.test(error.message)) return "SQLITE_MISUSE";
  return void 0;
}
var PRIMARY_CODES;
var init_driver = __esm({
  "src/store/sqlite/driver.ts"() {
    "use strict";
    init_engine();
    PRIMARY_CODES = {
      1: "SQLITE_ERROR",
      3: "SQLITE_PERM",
      4: "SQLITE_ABORT",
      5: "SQLITE_BUSY",
      6: "SQLITE_LOCKED",
      7: "SQLITE_NOMEM",
      8: "SQLITE_READONLY",
      10: "SQLITE_IOERR",
      11: "SQLITE_CORRUPT",
      13: "SQLITE_FULL",
      14: "SQLITE_CANTOPEN",
      15: "SQLITE_PROTOCOL",
      19: "SQLITE_CONSTRAINT",
      26: "SQLITE_NOTADB"
    };
  }
});

// src/store/sqlite/connection.ts
function toStoreError2(error) {
  if (error instanceof StoreUnavailableError || !(error instanceof Error)) return error;
  const sqlite = sqliteErrorCode(error);
  if (sqlite !== void 0 && UNAVAILABLE_CODES.some((c) => sqlite === c || sqlite.startsWith(`${c}_`))) {
    return new StoreUnavailableError({ cause: error });
  }
  if (sqlite === "SQLITE_MISUSE") return new StoreUnavailableError({ cause: error });
  const code = error.code;
  if (typeof code === "string" && FS_CODES.includes(code)) return new StoreUnavailableError({ cause: error });
  return error;
}
var LOCK_RETRY_MS, UNAVAILABLE_CODES, FS_CODES, ChangeWatch, SqliteConnection;
var init_connection2 = __esm({
  "src/store/sqlite/connection.ts"() {
    "use strict";
    init_store_unavailable_error();
    init_driver();
    LOCK_RETRY_MS = [1, 2];
    UNAVAILABLE_CODES = [
      "SQLITE_BUSY",
      "SQLITE_LOCKED",
      "SQLITE_CANTOPEN",
      "SQLITE_NOTADB",
      "SQLITE_CORRUPT",
      "SQLITE_IOERR",
      "SQLITE_FULL",
      "SQLITE_READONLY",
      "SQLITE_PERM",
      "SQLITE_PROTOCOL"
    ];
    FS_CODES = ["EACCES", "EPERM", "ENOTDIR", "EROFS", "ENOSPC", "EEXIST", "ENOENT", "ELOOP"];
    ChangeWatch = class {
      #dataVersion;
      #intervalMs;
      #waiters = /* @__PURE__ */ new Set();
      #local = 0;
      #timer;
      constructor(dataVersion, intervalMs) {
        this.#dataVersion = dataVersion;
        this.#intervalMs = intervalMs;
      }
      /** Take before checking the state; pass to {@link wait} so a change in between is not missed. */
      mark() {
        return { data: this.#dataVersion(), local: this.#local };
      }
      /** This process committed. */
      notify() {
        this.#local++;
        this.#tick();
      }
      /** Resolves when the file changed since `mark`, after `ms`, or when `signal` aborts or the watch closes. */
      wait(mark, ms, signal) {
        return new Promise((resolve3) => {
          if (signal?.aborted) return resolve3();
          const done = () => {
            clearTimeout(timeout);
            signal?.removeEventListener("abort", done);
            this.#waiters.delete(waiter);
            if (this.#waiters.size === 0) this.#stop();
            resolve3();
          };
          const waiter = { mark, wake: done };
          const timeout = setTimeout(done, Math.max(0, ms));
          signal?.addEventListener("abort", done, { once: true });
          this.#waiters.add(waiter);
          this.#timer ??= setInterval(() => this.#tick(), this.#intervalMs);
          this.#tick();
        });
      }
      /** Wake every waiter and stop polling. */
      close() {
        for (const waiter of [...this.#waiters]) waiter.wake();
        this.#stop();
      }
      #tick() {
        if (this.#waiters.size === 0) return;
        let data;
        try {
          data = this.#dataVersion();
        } catch {
          this.close();
          return;
        }
        for (const waiter of [...this.#waiters]) {
          if (waiter.mark.data !== data || waiter.mark.local !== this.#local) waiter.wake();
        }
      }
      #stop() {
        if (this.#timer) clearInterval(this.#timer);
        this.#timer = void 0;
      }
    };
    SqliteConnection = class {
      db;
      watch;
      #statements = /* @__PURE__ */ new Map();
      #busyTimeoutMs;
      /** `busyTimeoutMs`: the busy timeout the database was opened with (how long a write waits for the lock). */
      constructor(db, pollIntervalMs, busyTimeoutMs) {
        this.db = db;
        this.#busyTimeoutMs = busyTimeoutMs;
        const dataVersion = db.prepare("PRAGMA data_version");
        this.watch = new ChangeWatch(
          () => Number(dataVersion.get().data_version),
          pollIntervalMs
        );
      }
      /** A statement, prepared on first use (the hook uses a handful of the store's, so none is prepared up front). */
      statement(sql) {
        let statement = this.#statements.get(sql);
        if (!statement) {
          statement = this.db.prepare(sql);
          this.#statements.set(sql, statement);
        }
        return statement;
      }
      /**
       * Run `work` in one `BEGIN IMMEDIATE` transaction; roll back if it throws. Waiters are told after a commit. `work`
       * is synchronous, so a transaction never spans an await. While another connection holds the write lock, this waits
       * (asynchronously, a millisecond or two at a time) until it is free or the busy timeout has passed (then SQLite's
       * SQLITE_BUSY, which the store reports as unavailable).
       */
      async write(work) {
        const deadline = Date.now() + this.#busyTimeoutMs;
        const [low, high] = LOCK_RETRY_MS;
        while (!this.#begin(Date.now() >= deadline)) {
          const left = deadline - Date.now();
          await new Promise(
            (resolve3) => setTimeout(resolve3, Math.max(0, Math.min(left, low + Math.random() * (high - low))))
          );
        }
        return this.#commit(work);
      }
      /**
       * Try to take the write lock without waiting: false when another connection holds it, unless this is the `last` try
       * (then SQLite's SQLITE_BUSY error is thrown).
       */
      #begin(last) {
        this.statement("PRAGMA busy_timeout = 0").get();
        try {
          this.statement("BEGIN IMMEDIATE").run();
          return true;
        } catch (error) {
          if (last || !sqliteErrorCode(error)?.startsWith("SQLITE_BUSY")) throw error;
          return false;
        } finally {
          if (this.db.open) this.#restoreBusyTimeout();
        }
      }
      #restoreBusyTimeout() {
        this.statement(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(this.#busyTimeoutMs))}`).get();
      }
      /** The transaction begun: `work`, then COMMIT (ROLLBACK if it throws). */
      #commit(work) {
        let result;
        try {
          result = work();
          this.statement("COMMIT").run();
        } catch (error) {
          if (this.db.inTransaction) this.statement("ROLLBACK").run();
          throw error;
        }
        this.watch.notify();
        return result;
      }
      close() {
        this.watch.close();
        if (this.db.open) this.db.close();
      }
    };
  }
});

// src/store/sqlite/record.ts
function questionFromRow(row, specs) {
  const where = `${String(row.project)}#${String(row.id)}`;
  const hash = {};
  const put = (field, value) => {
    if (value !== null && value !== void 0) hash[field] = String(value);
  };
  put("v", row.v);
  put("project", row.project);
  put("id", row.id);
  put("status", row.status);
  put("spec", row.spec);
  put("createdAt", row.created_at);
  put("expiresAt", row.expires_at);
  put("answer", row.answer);
  put("closure", row.closure);
  put("deliveredAt", row.delivered_at);
  put("deliveredVia", row.delivered_via);
  put("reminders", row.reminders);
  put("remindedAt", row.reminded_at);
  for (const [platform, channel, messageId] of messageTriples(row.messages, where)) {
    hash[messageField(platform, channel)] = messageId;
  }
  return questionFromHash(hash, where, specs);
}
function messageTriples(value, where) {
  if (value === null || value === void 0) return [];
  let list;
  try {
    list = JSON.parse(String(value));
  } catch (error) {
    throw new CorruptRecordError(where, "`messages`: expected JSON", { cause: error });
  }
  if (!Array.isArray(list) || !list.every((item) => Array.isArray(item) && item.length === 3 && item.every((part) => typeof part === "string"))) {
    throw new CorruptRecordError(where, "`messages`: expected [platform, channel, messageId] triples");
  }
  return list;
}
var QUESTION_COLUMNS;
var init_record2 = __esm({
  "src/store/sqlite/record.ts"() {
    "use strict";
    init_corrupt_record_error();
    init_record();
    init_record();
    QUESTION_COLUMNS = `q.project, q.id, q.v, q.status, q.spec, q.created_at, q.expires_at, q.answer,
  q.closure, q.delivered_at, q.delivered_via, q.reminders, q.reminded_at,
  (SELECT json_group_array(json_array(m.platform, m.channel, m.message_id)) FROM messages m
    WHERE m.project = q.project AND m.question_id = q.id) AS messages`;
  }
});

// src/store/sqlite/context.ts
var SELECT_ONE, SqliteContext;
var init_context2 = __esm({
  "src/store/sqlite/context.ts"() {
    "use strict";
    init_record();
    init_shared();
    init_connection2();
    init_record2();
    SELECT_ONE = `SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.project = ? AND q.id = ?`;
    SqliteContext = class {
      c;
      options;
      now;
      /** Specs as parsed from rows, so reading the same row again skips parsing its spec. */
      #parsed = new ParsedSpecs(1e4);
      constructor(connection, options) {
        this.c = connection;
        this.options = options;
        this.now = options.now ?? Date.now;
      }
      /** Run a call's work (a read, or a write transaction) as the port's promise, failures to reach the file as `StoreUnavailableError`. */
      async run(work) {
        try {
          return await work();
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      /** Append a transition's event (inside its transaction). */
      event(type, project, id, at) {
        this.c.statement("INSERT INTO events (type, project, question_id, at) VALUES (?, ?, ?, ?)").run(type, project, id, at);
      }
      /** Drop every draft of a question that is no longer pending (inside its transaction). */
      dropDrafts(project, id) {
        this.c.statement("DELETE FROM drafts WHERE project = ? AND question_id = ?").run(project, id);
      }
      /** One question as stored now (inside or outside a transaction). Throws `CorruptRecordError`. */
      get(project, id) {
        const row = this.c.statement(SELECT_ONE).get(project, id);
        return row && this.fromRow(row);
      }
      /** A row as a question. Throws `CorruptRecordError`. */
      fromRow(row) {
        return questionFromRow(row, this.#parsed);
      }
      /** Rows as questions; a row that does not read is reported and skipped (listings never fail whole). */
      readMany(rows) {
        return readEach(rows, (row) => this.fromRow(row), this.options.onCorruptRecord);
      }
    };
  }
});

// src/store/sqlite/decisions.ts
function indexDecision(x, question) {
  const doc = x.c.statement(
    "INSERT OR IGNORE INTO decided_docs (project, id, member, length, terms) VALUES (?, ?, ?, ?, ?)"
  );
  const term = x.c.statement("INSERT OR IGNORE INTO decided_terms (project, term, id, member) VALUES (?, ?, ?, ?)");
  const held = x.c.statement(
    `INSERT INTO decided_df (project, term, documents) VALUES (?, ?, 1)
     ON CONFLICT (project, term) DO UPDATE SET documents = documents + 1`
  );
  const totals = x.c.statement(
    `INSERT INTO decided_totals (project, documents, length) VALUES (?, 1, ?)
     ON CONFLICT (project) DO UPDATE SET documents = documents + 1, length = length + excluded.length`
  );
  for (const document of documentsOf(question)) {
    const member = document.member ?? -1;
    const { length } = document.vector;
    if (doc.run(question.project, question.id, member, length, encodeTerms(document.vector)).changes === 0) continue;
    for (const name of document.vector.counts.keys()) {
      if (term.run(question.project, name, question.id, member).changes > 0) held.run(question.project, name);
    }
    totals.run(question.project, length);
  }
}
function unindexDecision(x, project, id) {
  const dropped = x.c.statement(
    "SELECT COUNT(*) AS documents, COALESCE(SUM(length), 0) AS length FROM decided_docs WHERE project = ? AND id = ?"
  ).get(project, id);
  if (dropped.documents > 0) {
    x.c.statement("UPDATE decided_totals SET documents = documents - ?, length = length - ? WHERE project = ?").run(dropped.documents, dropped.length, project);
  }
  x.c.statement(
    `UPDATE decided_df SET documents = documents - (
         SELECT COUNT(*) FROM decided_terms t WHERE t.project = decided_df.project AND t.term = decided_df.term AND t.id = ?)
       WHERE project = ? AND term IN (SELECT term FROM decided_terms WHERE project = ? AND id = ?)`
  ).run(id, project, project, id);
  x.c.statement(
    `DELETE FROM decided_df WHERE project = ? AND documents <= 0
         AND term IN (SELECT term FROM decided_terms WHERE project = ? AND id = ?)`
  ).run(project, project, id);
  x.c.statement("DELETE FROM decided_docs WHERE project = ? AND id = ?").run(project, id);
  x.c.statement("DELETE FROM decided_terms WHERE project = ? AND id = ?").run(project, id);
}
var CANDIDATES_MAX2, SqliteDecisions;
var init_decisions2 = __esm({
  "src/store/sqlite/decisions.ts"() {
    "use strict";
    init_similarity();
    init_decided_index();
    CANDIDATES_MAX2 = 2e3;
    SqliteDecisions = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      /** Index the project's earlier decisions once (a file written before the index). */
      #build(project) {
        const { c } = this.#x;
        if (c.statement("SELECT 1 FROM decided_built WHERE project = ?").get(project) !== void 0) return;
        c.write(() => {
          if (c.statement("SELECT 1 FROM decided_built WHERE project = ?").get(project) !== void 0) return;
          const rows = c.statement(`SELECT id FROM questions WHERE project = ? AND status IN ('answered', 'delivered')`).all(project);
          for (const { id } of rows) {
            const question = this.#x.get(project, id);
            if (question?.answer !== void 0) indexDecision(this.#x, question);
          }
          c.statement("INSERT INTO decided_built (project) VALUES (?)").run(project);
        });
      }
      similarDecisions(project, items, options = {}) {
        const x = this.#x;
        const { c } = x;
        return x.run(() => {
          this.#build(project);
          const queries = items.map((item) => termVector(item));
          const totals = c.statement("SELECT documents, length FROM decided_totals WHERE project = ?").get(project);
          if (totals === void 0 || totals.documents <= 0) return items.map(() => []);
          const terms2 = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
          const frequency = /* @__PURE__ */ new Map();
          const held = c.statement(
            `SELECT term, documents FROM decided_df WHERE project = ? AND term IN (${terms2.map(() => "?").join(", ")})`
          ).all(project, ...terms2);
          for (const row of held) frequency.set(row.term, row.documents);
          const stats = {
            documents: totals.documents,
            averageLength: totals.length / totals.documents,
            documentFrequency: (term) => frequency.get(term) ?? 0
          };
          const wanted = candidateTerms(queries, stats, options.threshold);
          if (wanted.length === 0) return items.map(() => []);
          const seen = /* @__PURE__ */ new Set();
          const rows = c.statement(
            `SELECT d.id, d.member, d.length, d.terms FROM decided_terms t
             JOIN decided_docs d ON d.project = t.project AND d.id = t.id AND d.member = t.member
             WHERE t.project = ? AND t.term IN (${wanted.map(() => "?").join(", ")})`
          ).all(project, ...wanted).filter((row) => !seen.has(`${row.id}.${row.member}`) && seen.add(`${row.id}.${row.member}`)).sort((a, b) => b.id - a.id).slice(0, CANDIDATES_MAX2);
          const candidates = rows.map((row) => ({
            id: row.id,
            ...row.member < 0 ? {} : { member: row.member },
            length: row.length,
            terms: row.terms
          }));
          const ranked = rank(items, candidates, stats, options);
          const decisions = /* @__PURE__ */ new Map();
          for (const id of new Set(ranked.flat().map((found) => found.id))) {
            const question = x.get(project, id);
            if (question?.answer !== void 0) decisions.set(id, question);
          }
          return withDecisions(ranked, decisions);
        });
      }
    };
  }
});

// src/store/sqlite/delivery.ts
var import_node_crypto4, SqliteDelivery;
var init_delivery2 = __esm({
  "src/store/sqlite/delivery.ts"() {
    "use strict";
    import_node_crypto4 = require("node:crypto");
    init_shared();
    init_record2();
    SqliteDelivery = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      claimUndelivered(project, options) {
        const { c } = this.#x;
        const claimId = (0, import_node_crypto4.randomUUID)();
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const waiting = c.statement(
              `SELECT ${QUESTION_COLUMNS}, q.size, q.claim, q.claim_until FROM questions q
             WHERE q.project = ? AND q.ready_at IS NOT NULL AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
               AND (? = 0 OR q.id = ?)
             ORDER BY q.ready_at, q.id`
            ).all(project, options.blockingOnly ? 1 : 0, options.questionId ?? 0, options.questionId ?? 0);
            const lease = c.statement("UPDATE questions SET claim = ?, claim_until = ? WHERE project = ? AND id = ?");
            const questions = [];
            let used = 0;
            let full = false;
            let remaining = 0;
            for (const row of waiting) {
              if (row.claim != null && row.claim_until != null && row.claim_until > now) continue;
              const size = row.size ?? 0;
              if (!full && (questions.length === 0 || used + size <= options.budget)) {
                used += size;
                questions.push(this.#x.fromRow(row));
                lease.run(claimId, now + options.leaseMs, project, row.id);
              } else {
                full = true;
                remaining++;
              }
            }
            return { claimId, via: options.via ?? "prompt", questions, remaining };
          })
        );
      }
      waitingOutcomes(project, options = {}) {
        return this.#x.run(() => {
          const rows = this.#x.c.statement(
            `SELECT ${QUESTION_COLUMNS} FROM questions q
           WHERE q.project = ? AND q.ready_at IS NOT NULL AND (q.claim IS NULL OR q.claim_until IS NULL OR q.claim_until <= ?)
             AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
           ORDER BY q.ready_at, q.id`
          ).all(project, this.#x.now(), options.blockingOnly ? 1 : 0);
          return rows.map((row) => this.#x.fromRow(row));
        });
      }
      /** Deliver one outcome in the running transaction: answers become delivered, the retention clock starts. */
      #deliver(project, id, status, now, via) {
        this.#x.c.statement(
          `UPDATE questions SET status = ?, delivered_at = ?, delivered_via = ?, done_at = ?, ready_at = NULL,
           claim = NULL, claim_until = NULL
         WHERE project = ? AND id = ?`
        ).run(status === "answered" ? "delivered" : status, now, via, now, project, id);
        this.#x.event("delivered", project, id, now);
      }
      confirmClaim(project, claim, ids) {
        const { c } = this.#x;
        const wanted = claimedIds(claim, ids);
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const read = c.statement("SELECT status, claim FROM questions WHERE project = ? AND id = ?");
            const confirmed = [];
            for (const id of wanted) {
              const row = read.get(project, id);
              if (row?.claim !== claim.claimId) continue;
              this.#deliver(project, id, row.status, now, claim.via);
              confirmed.push(id);
            }
            return confirmed.sort((a, b) => a - b);
          })
        );
      }
      releaseClaim(project, claim, ids) {
        const { c } = this.#x;
        const wanted = claimedIds(claim, ids);
        return this.#x.run(
          () => c.write(() => {
            const release = c.statement(
              "UPDATE questions SET claim = NULL, claim_until = NULL WHERE project = ? AND id = ? AND claim = ?"
            );
            for (const id of wanted) release.run(project, id, claim.claimId);
          })
        );
      }
      markDelivered(project, id, via = "tool-result") {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const row = c.statement("SELECT status, ready_at, claim, claim_until FROM questions WHERE project = ? AND id = ?").get(project, id);
            if (!row || row.ready_at === null) return "not-waiting";
            if (row.claim !== null && row.claim_until !== null && row.claim_until > now) return "leased";
            this.#deliver(project, id, row.status, now, via);
            return "delivered";
          })
        );
      }
    };
  }
});

// src/store/sqlite/drafts.ts
var SELECT_DRAFT, SqliteDrafts;
var init_drafts3 = __esm({
  "src/store/sqlite/drafts.ts"() {
    "use strict";
    init_drafts();
    SELECT_DRAFT = "SELECT draft FROM drafts WHERE project = ? AND question_id = ? AND person = ?";
    SqliteDrafts = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      saveDraft(project, id, person, change) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const question = this.#x.get(project, id);
            if (!question) return { kind: "unknown" };
            const checked = checkDraftChange(question, change);
            if (question.status !== "pending") return { kind: "not-pending", question };
            const key = personKey(person, checked.member);
            const row = c.statement(SELECT_DRAFT).get(project, id, key);
            const stored = row && parseDraft(row.draft, `${project}#${id}`);
            const draft = mergeDraft(draftItem(question, checked.member), stored, checked, this.#x.now());
            c.statement("INSERT OR REPLACE INTO drafts (project, question_id, person, draft) VALUES (?, ?, ?, ?)").run(
              project,
              id,
              key,
              JSON.stringify(draft)
            );
            return { kind: "saved", draft };
          })
        );
      }
      getDraft(project, id, person, member) {
        return this.#x.run(() => {
          const row = this.#x.c.statement(SELECT_DRAFT).get(project, id, personKey(person, member));
          return row && parseDraft(row.draft, `${project}#${id}`);
        });
      }
    };
  }
});

// src/store/sqlite/consumer.ts
function isEventType2(value) {
  return EVENT_TYPES.includes(value);
}
function toEvents(rows) {
  const events = [];
  for (const row of rows) {
    if (!isEventType2(row.type)) continue;
    events.push({
      eventId: String(row.id),
      type: row.type,
      project: row.project,
      questionId: row.question_id,
      at: row.at
    });
  }
  return events;
}
var SqliteEventConsumer;
var init_consumer2 = __esm({
  "src/store/sqlite/consumer.ts"() {
    "use strict";
    init_port();
    init_connection2();
    SqliteEventConsumer = class {
      #o;
      #closing = new AbortController();
      constructor(options) {
        this.#o = options;
      }
      /**
       * Create the group if missing (not a transition: no event, no notify needed, but under the write lock), at the
       * start, or where `inheritFrom` got to (before its oldest unacknowledged event, else at its cursor).
       */
      static async ensureGroup(connection, group, inheritFrom) {
        await connection.write(() => {
          connection.statement(
            `INSERT OR IGNORE INTO event_groups (name, last_id) VALUES (?, COALESCE(
             (SELECT MIN(event_id) - 1 FROM event_pending WHERE group_name = ?),
             (SELECT last_id FROM event_groups WHERE name = ?),
             0))`
          ).run(group, inheritFrom ?? null, inheritFrom ?? null);
        });
      }
      async #take(count) {
        const c = this.#o.connection;
        const ready = c.statement("SELECT 1 FROM events WHERE id > (SELECT last_id FROM event_groups WHERE name = ?) LIMIT 1").get(this.#o.group);
        if (ready === void 0) return [];
        return c.write(() => {
          const rows = c.statement(
            `SELECT e.id, e.type, e.project, e.question_id, e.at FROM events e
           WHERE e.id > (SELECT last_id FROM event_groups WHERE name = ?) ORDER BY e.id LIMIT ?`
          ).all(this.#o.group, count);
          const last = rows.at(-1);
          if (!last) return [];
          const now = this.#o.now();
          c.statement("UPDATE event_groups SET last_id = ? WHERE name = ?").run(last.id, this.#o.group);
          const pend = c.statement(
            `INSERT OR REPLACE INTO event_pending (group_name, event_id, consumer, delivered_at, deliveries)
         VALUES (?, ?, ?, ?, 1)`
          );
          for (const row of rows) pend.run(this.#o.group, row.id, this.#o.consumer, now);
          return toEvents(rows);
        });
      }
      async read(options = {}) {
        const count = options.count ?? 100;
        const deadline = Date.now() + (options.blockMs ?? 0);
        try {
          for (; ; ) {
            if (this.#closing.signal.aborted) return [];
            const mark = this.#o.connection.watch.mark();
            const events = await this.#take(count);
            const left = deadline - Date.now();
            if (events.length > 0 || left <= 0) return events;
            await this.#o.connection.watch.wait(mark, left, this.#closing.signal);
          }
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      async reclaim(minIdleMs, count = 100) {
        const c = this.#o.connection;
        try {
          return await c.write(() => {
            const now = this.#o.now();
            const idle = c.statement(
              `SELECT p.event_id, e.id, e.type, e.project, e.question_id, e.at FROM event_pending p
             LEFT JOIN events e ON e.id = p.event_id
             WHERE p.group_name = ? AND p.delivered_at <= ? ORDER BY p.event_id LIMIT ?`
            ).all(this.#o.group, now - minIdleMs, count);
            const move = c.statement(
              `UPDATE event_pending SET consumer = ?, delivered_at = ?, deliveries = deliveries + 1
           WHERE group_name = ? AND event_id = ?`
            );
            const drop = c.statement("DELETE FROM event_pending WHERE group_name = ? AND event_id = ?");
            const kept = [];
            for (const row of idle) {
              if (row.id === null) drop.run(this.#o.group, row.event_id);
              else {
                move.run(this.#o.consumer, now, this.#o.group, row.event_id);
                kept.push(row);
              }
            }
            return toEvents(kept);
          });
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      async ack(events) {
        if (events.length === 0) return;
        const c = this.#o.connection;
        try {
          await c.write(() => {
            const drop = c.statement("DELETE FROM event_pending WHERE group_name = ? AND event_id = ?");
            for (const event of events) {
              const id = Number(event.eventId);
              if (Number.isSafeInteger(id)) drop.run(this.#o.group, id);
            }
          });
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      async close() {
        this.#closing.abort();
        this.#o.onClose();
      }
    };
  }
});

// src/store/sqlite/tail.ts
var SqliteEventTail;
var init_tail2 = __esm({
  "src/store/sqlite/tail.ts"() {
    "use strict";
    init_store_unavailable_error();
    init_connection2();
    init_consumer2();
    SqliteEventTail = class {
      #connection;
      #closing = new AbortController();
      #cursor;
      constructor(connection) {
        this.#connection = connection;
        const newest = connection.statement("SELECT MAX(id) AS id FROM events").get();
        this.#cursor = newest?.id ?? 0;
      }
      async next(options) {
        const deadline = Date.now() + options.timeoutMs;
        const select = this.#connection.statement(
          "SELECT id, type, project, question_id, at FROM events WHERE id > ? ORDER BY id LIMIT ?"
        );
        try {
          for (; ; ) {
            if (this.#closing.signal.aborted) throw new StoreUnavailableError();
            if (options.signal?.aborted) return [];
            const mark = this.#connection.watch.mark();
            const rows = select.all(this.#cursor, options.count ?? 100);
            const last = rows.at(-1);
            if (last) {
              this.#cursor = last.id;
              return toEvents(rows);
            }
            const left = deadline - Date.now();
            if (left <= 0) return [];
            const signal = options.signal ? AbortSignal.any([options.signal, this.#closing.signal]) : this.#closing.signal;
            await this.#connection.watch.wait(mark, left, signal);
          }
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      async close() {
        this.#closing.abort();
      }
    };
  }
});

// src/store/sqlite/events.ts
var SqliteEvents;
var init_events2 = __esm({
  "src/store/sqlite/events.ts"() {
    "use strict";
    init_connection2();
    init_consumer2();
    init_tail2();
    SqliteEvents = class {
      #x;
      #consumers = /* @__PURE__ */ new Set();
      #tails = /* @__PURE__ */ new Set();
      constructor(context) {
        this.#x = context;
      }
      consumer(group, consumerName, options = {}) {
        const { c } = this.#x;
        return this.#x.run(async () => {
          await SqliteEventConsumer.ensureGroup(c, group, options.inheritFrom);
          const consumer = new SqliteEventConsumer({
            connection: c,
            group,
            consumer: consumerName,
            now: this.#x.now,
            onClose: () => this.#consumers.delete(consumer)
          });
          this.#consumers.add(consumer);
          return consumer;
        });
      }
      tail() {
        return this.#x.run(() => {
          const tail = new SqliteEventTail(this.#x.c);
          this.#tails.add(tail);
          const close = tail.close.bind(tail);
          tail.close = async () => {
            this.#tails.delete(tail);
            await close();
          };
          return tail;
        });
      }
      /**
       * Returns the moment a commit of this process settles the question; a commit of another process is seen within
       * `pollIntervalMs` (the file has no push notification; looking costs one `PRAGMA data_version`). The time-out
       * is real time, not the store's clock.
       */
      async watch(_project) {
        const watch = this.#x.c.watch;
        let mark = watch.mark();
        return {
          changed: async (options) => {
            try {
              if (options.signal?.aborted || options.timeoutMs <= 0) return false;
              await watch.wait(mark, options.timeoutMs, options.signal);
              const now = watch.mark();
              if (now.data === mark.data && now.local === mark.local) return false;
              mark = now;
              return true;
            } catch (error) {
              throw toStoreError2(error);
            }
          },
          close: async () => void 0
        };
      }
      async waitWhilePending(project, id, options) {
        const { watch } = this.#x.c;
        const deadline = Date.now() + options.timeoutMs;
        try {
          for (; ; ) {
            const mark = watch.mark();
            const question = this.#x.get(project, id);
            const left = deadline - Date.now();
            if (question?.status !== "pending" || left <= 0 || options.signal?.aborted) return question;
            await watch.wait(mark, left, options.signal);
          }
        } catch (error) {
          throw toStoreError2(error);
        }
      }
      /** Stop every consumer and tail this store started. */
      async close() {
        for (const consumer of [...this.#consumers]) await consumer.close();
        for (const tail of [...this.#tails]) await tail.close();
      }
    };
  }
});

// src/store/sqlite/failed-events.ts
function failedFromRow(row) {
  const { type, project, question_id: questionId, at, attempts, error, failed_at: failedAt } = row;
  return readFailedRecord(row.group_name, row.event_id, { type, project, questionId, at, attempts, error, failedAt });
}
var SqliteFailures;
var init_failed_events3 = __esm({
  "src/store/sqlite/failed-events.ts"() {
    "use strict";
    init_failed_events();
    init_surface_faults();
    SqliteFailures = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      recordFailedEvent(group, event, failure2) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const r = failedRecord(event, failure2, this.#x.now());
            c.statement(
              `INSERT OR REPLACE INTO failed_events
               (group_name, event_id, type, project, question_id, at, attempts, error, failed_at, replay)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`
            ).run(group, event.eventId, r.type, r.project, r.questionId, r.at, r.attempts, r.error, r.failedAt);
          })
        );
      }
      failedEvents(options = {}) {
        const { c } = this.#x;
        return this.#x.run(() => {
          const groups = c.statement(
            "SELECT group_name, COUNT(*) AS n FROM failed_events WHERE replay = 0 GROUP BY group_name ORDER BY group_name"
          ).all();
          const sample = c.statement(
            `SELECT * FROM failed_events WHERE group_name = ? AND replay = 0 ORDER BY failed_at DESC LIMIT ?`
          );
          return groups.map(({ group_name: group, n }) => ({
            group,
            count: n,
            sample: sample.all(group, options.sample ?? 5).map((row) => failedFromRow(row)).filter((event) => event !== void 0)
          }));
        });
      }
      replayFailedEvents(group) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(
            () => Number(
              c.statement("UPDATE failed_events SET replay = 1 WHERE replay = 0 AND (? IS NULL OR group_name = ?)").run(group ?? null, group ?? null).changes
            )
          )
        );
      }
      takeReplayedEvents(group, count) {
        const { c } = this.#x;
        return this.#x.run(() => {
          const any = c.statement("SELECT 1 FROM failed_events WHERE group_name = ? AND replay = 1 LIMIT 1").get(group);
          if (any === void 0) return [];
          return c.write(() => {
            const rows = c.statement("SELECT * FROM failed_events WHERE group_name = ? AND replay = 1 ORDER BY failed_at LIMIT ?").all(group, count);
            const drop = c.statement("DELETE FROM failed_events WHERE group_name = ? AND event_id = ?");
            for (const row of rows) drop.run(group, row.event_id);
            return rows.map((row) => failedFromRow(row)).filter((event) => event !== void 0);
          });
        });
      }
      recordSurfaceFault(fault) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const r = faultRecord(fault, this.#x.now());
            c.statement(
              `INSERT OR REPLACE INTO surface_faults (group_name, channel, error, fix, since) VALUES (?, ?, ?, ?, ?)`
            ).run(r.group, r.channel ?? "", r.error, r.fix, r.since);
          })
        );
      }
      clearSurfaceFaults(group, channels) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const drop = c.statement("DELETE FROM surface_faults WHERE group_name = ? AND channel = ?");
            for (const channel of ["", ...channels]) drop.run(group, channel);
          })
        );
      }
      surfaceFaults() {
        return this.#x.run(
          () => this.#x.c.statement("SELECT * FROM surface_faults ORDER BY group_name, channel").all().map(
            (row) => readFaultRecord({
              group: row.group_name,
              channel: row.channel,
              error: row.error,
              fix: row.fix,
              since: row.since
            })
          ).filter((fault) => fault !== void 0)
        );
      }
    };
  }
});

// src/store/sqlite/leases.ts
var SqliteLeases;
var init_leases2 = __esm({
  "src/store/sqlite/leases.ts"() {
    "use strict";
    SqliteLeases = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      acquireLease(name, owner, ms) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const taken = c.statement(
              `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
             WHERE leases.owner = excluded.owner OR leases.until <= ?`
            ).run(name, owner, now + Math.max(1, ms), now);
            return Number(taken.changes) === 1;
          })
        );
      }
      releaseLease(name, owner) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            c.statement("DELETE FROM leases WHERE name = ? AND owner = ?").run(name, owner);
          })
        );
      }
      seizeLease(name, owner, ms) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            c.statement(
              `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until`
            ).run(name, owner, this.#x.now() + Math.max(1, ms));
          })
        );
      }
    };
  }
});

// src/store/sqlite/questions.ts
var SqliteQuestions;
var init_questions2 = __esm({
  "src/store/sqlite/questions.ts"() {
    "use strict";
    init_question_ref();
    init_drafts();
    init_shared();
    init_tag_collision_error();
    init_record2();
    SqliteQuestions = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      park(project, spec) {
        const { c } = this.#x;
        const record2 = specRecord(spec);
        const tag = projectTag(project);
        return this.#x.run(
          () => c.write(() => {
            const owner = c.statement("SELECT project FROM projects WHERE tag = ?").get(tag);
            if (owner && owner.project !== project) throw new TagCollisionError(tag);
            if (!owner) c.statement("INSERT INTO projects (project, tag, seq) VALUES (?, ?, 0)").run(project, tag);
            const { seq: id } = c.statement("UPDATE projects SET seq = seq + 1 WHERE project = ? RETURNING seq").get(project);
            const now = this.#x.now();
            c.statement(
              `INSERT INTO questions (project, id, v, status, spec, created_at, expires_at)
             VALUES (?, ?, ?, 'pending', ?, ?, ?)`
            ).run(project, id, record2.version, record2.json, now, expiryOf(spec, now) ?? null);
            this.#x.event("parked", project, id, now);
            return parkedQuestion(project, id, spec, now);
          })
        );
      }
      get(project, id) {
        return this.#x.run(() => this.#x.get(project, id));
      }
      #list(project, filter) {
        const statuses = filter.status === void 0 ? null : JSON.stringify(filter.status);
        const rows = this.#x.c.statement(
          `SELECT ${QUESTION_COLUMNS} FROM questions q
         WHERE q.project = @project AND (@statuses IS NULL OR q.status IN (SELECT value FROM json_each(@statuses)))`
        ).all({ project, statuses });
        return this.#x.readMany(rows).filter((q) => filter.blocking === void 0 || q.isBlocking === filter.blocking);
      }
      list(project, filter = {}) {
        return this.#x.run(() => this.#list(project, filter).sort(byBlockingThenId));
      }
      listAcross(projects, filter = {}) {
        return this.#x.run(
          () => [...new Set(projects)].flatMap((project) => this.#list(project, filter)).sort(byBlockingThenAge)
        );
      }
      knownProjects() {
        return this.#x.run(
          () => this.#x.c.statement("SELECT project FROM projects ORDER BY rowid").all().map(
            (row) => row.project
          )
        );
      }
      projectByTag(tag) {
        return this.#x.run(() => {
          const row = this.#x.c.statement("SELECT project FROM projects WHERE tag = ?").get(tag);
          return row?.project;
        });
      }
      recordMessage(project, id, ref) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const exists = c.statement("SELECT 1 FROM questions WHERE project = ? AND id = ?").get(project, id);
            if (exists === void 0) return false;
            c.statement(
              `INSERT OR REPLACE INTO messages (project, question_id, platform, channel, message_id)
             VALUES (?, ?, ?, ?, ?)`
            ).run(project, id, ref.platform, ref.channel, ref.messageId);
            return true;
          })
        );
      }
    };
  }
});

// src/store/sqlite/newer-schema-error.ts
var NewerSchemaError;
var init_newer_schema_error = __esm({
  "src/store/sqlite/newer-schema-error.ts"() {
    "use strict";
    NewerSchemaError = class extends Error {
      constructor(found, known) {
        super(`The inbox file has schema version ${found}; this ask-later reads up to ${known}: upgrade ask-later`);
        this.found = found;
        this.known = known;
      }
      found;
      known;
      name = "NewerSchemaError";
    };
  }
});

// src/store/sqlite/schema.ts
function userVersion(db) {
  return Number(db.prepare("PRAGMA user_version").get().user_version);
}
function migrate(db) {
  if (userVersion(db) === SCHEMA_VERSION) return;
  db.exec("BEGIN IMMEDIATE");
  try {
    const found = userVersion(db);
    if (found > SCHEMA_VERSION) throw new NewerSchemaError(found, SCHEMA_VERSION);
    for (let version = found; version < SCHEMA_VERSION; version++) db.exec(MIGRATIONS[version] ?? "");
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
var SCHEMA_VERSION, MIGRATIONS;
var init_schema = __esm({
  "src/store/sqlite/schema.ts"() {
    "use strict";
    init_newer_schema_error();
    SCHEMA_VERSION = 11;
    MIGRATIONS = [
      // 0 → 1: the first layout.
      `
  CREATE TABLE projects (
    project TEXT PRIMARY KEY,
    tag     TEXT NOT NULL UNIQUE,
    seq     INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE TABLE questions (
    project      TEXT NOT NULL,
    id           INTEGER NOT NULL,
    v            INTEGER NOT NULL,
    status       TEXT NOT NULL,
    spec         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    answer       TEXT,
    closure      TEXT,
    size         INTEGER,
    ready_at     INTEGER,
    claim        TEXT,
    claim_until  INTEGER,
    delivered_at INTEGER,
    done_at      INTEGER,
    PRIMARY KEY (project, id)
  ) STRICT;
  CREATE INDEX questions_by_status ON questions (project, status);
  CREATE INDEX questions_outbox ON questions (project, ready_at, id) WHERE ready_at IS NOT NULL;
  CREATE INDEX questions_expiry ON questions (expires_at) WHERE status = 'pending' AND expires_at IS NOT NULL;
  CREATE INDEX questions_done ON questions (done_at) WHERE done_at IS NOT NULL;

  CREATE TABLE messages (
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    platform    TEXT NOT NULL,
    channel     TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    PRIMARY KEY (project, question_id, platform, channel)
  ) STRICT;

  CREATE TABLE drafts (
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    person      TEXT NOT NULL,
    draft       TEXT NOT NULL,
    PRIMARY KEY (project, question_id, person)
  ) STRICT;

  CREATE TABLE events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    type        TEXT NOT NULL,
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    at          INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX events_by_time ON events (at);

  CREATE TABLE event_groups (
    name    TEXT PRIMARY KEY,
    last_id INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE event_pending (
    group_name   TEXT NOT NULL,
    event_id     INTEGER NOT NULL,
    consumer     TEXT NOT NULL,
    delivered_at INTEGER NOT NULL,
    deliveries   INTEGER NOT NULL,
    PRIMARY KEY (group_name, event_id)
  ) STRICT;
  CREATE INDEX event_pending_by_age ON event_pending (group_name, delivered_at);
  `,
      // 1 → 2: named leases.
      `
  CREATE TABLE leases (
    name  TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL
  ) STRICT;
  `,
      // 2 → 3: events a consumer group gave up on.
      `
  CREATE TABLE failed_events (
    group_name  TEXT NOT NULL,
    event_id    TEXT NOT NULL,
    type        TEXT NOT NULL,
    project     TEXT NOT NULL,
    question_id INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    attempts    INTEGER NOT NULL,
    error       TEXT NOT NULL,
    failed_at   INTEGER NOT NULL,
    replay      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (group_name, event_id)
  ) STRICT;
  `,
      // 3 → 4: how an outcome reached the agent; reminders sent while pending.
      `
  ALTER TABLE questions ADD COLUMN delivered_via TEXT;
  ALTER TABLE questions ADD COLUMN reminders INTEGER;
  ALTER TABLE questions ADD COLUMN reminded_at INTEGER;
  `,
      // 4 → 5: the views read a page at a time (store/paging.ts): blocking and closing time as columns computed from
      // the record (so every write path keeps them true, and rows written before need nothing; a field that is not
      // JSON computes as not blocking / the creation time rather than failing the write), each view's order an index.
      `
  ALTER TABLE questions ADD COLUMN blocking INTEGER GENERATED ALWAYS AS
    (CASE WHEN json_valid(spec) AND json_extract(spec, '$.isBlocking') = 1 THEN 1 ELSE 0 END) VIRTUAL;
  ALTER TABLE questions ADD COLUMN closed_at INTEGER GENERATED ALWAYS AS
    (CASE WHEN status = 'pending' THEN NULL ELSE CAST(coalesce(
      CASE WHEN json_valid(answer) THEN json_extract(answer, '$.at') END,
      CASE WHEN json_valid(closure) THEN json_extract(closure, '$.at') END,
      delivered_at, created_at) AS INTEGER) END) VIRTUAL;
  CREATE INDEX questions_pending_view ON questions (blocking DESC, created_at, id) WHERE status = 'pending';
  CREATE INDEX questions_closed_view ON questions (closed_at DESC, id DESC) WHERE status <> 'pending';
  `,
      // 5 → 6: the agents' tokens.
      `
  CREATE TABLE IF NOT EXISTS tokens (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    hash         TEXT NOT NULL,
    patterns     TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    last_used_at INTEGER
  ) STRICT;
  `,
      // 6 → 7: surfaces the bridge found refusing for good.
      `
  CREATE TABLE IF NOT EXISTS surface_faults (
    group_name TEXT NOT NULL,
    channel    TEXT NOT NULL,
    error      TEXT NOT NULL,
    fix        TEXT NOT NULL,
    since      INTEGER NOT NULL,
    PRIMARY KEY (group_name, channel)
  ) STRICT;
  `,
      // 7 → 8: the index of decisions (sqlite/decisions.ts), built per project on its first check.
      `
  CREATE TABLE IF NOT EXISTS decided_docs (
    project TEXT NOT NULL,
    id      INTEGER NOT NULL,
    member  INTEGER NOT NULL,
    length  INTEGER NOT NULL,
    terms   TEXT NOT NULL,
    PRIMARY KEY (project, id, member)
  ) STRICT;
  CREATE TABLE IF NOT EXISTS decided_terms (
    project TEXT NOT NULL,
    term    TEXT NOT NULL,
    id      INTEGER NOT NULL,
    member  INTEGER NOT NULL,
    PRIMARY KEY (project, term, id, member)
  ) STRICT;
  CREATE INDEX IF NOT EXISTS decided_terms_by_question ON decided_terms (project, id, member);
  CREATE TABLE IF NOT EXISTS decided_built (project TEXT PRIMARY KEY) STRICT;
  `,
      // 8 → 9: the index's totals kept with it (a check read every document to count them).
      `
  CREATE TABLE IF NOT EXISTS decided_totals (
    project   TEXT PRIMARY KEY,
    documents INTEGER NOT NULL,
    length    INTEGER NOT NULL
  ) STRICT;
  INSERT OR REPLACE INTO decided_totals (project, documents, length)
    SELECT project, COUNT(*), SUM(length) FROM decided_docs GROUP BY project;
  `,
      // 9 → 10: tokens that also sign a person in to the web inbox (`token create --web`).
      `
  ALTER TABLE tokens ADD COLUMN web INTEGER NOT NULL DEFAULT 0;
  `,
      // 10 → 11: each term's document count kept with the index (a check counted the term's rows, every time).
      `
  CREATE TABLE IF NOT EXISTS decided_df (
    project   TEXT NOT NULL,
    term      TEXT NOT NULL,
    documents INTEGER NOT NULL,
    PRIMARY KEY (project, term)
  ) STRICT, WITHOUT ROWID;
  INSERT OR REPLACE INTO decided_df (project, term, documents)
    SELECT project, term, COUNT(*) FROM decided_terms GROUP BY project, term;
  `
    ];
  }
});

// src/store/sqlite/tokens.ts
function fromRow(row) {
  let patterns;
  try {
    patterns = JSON.parse(row.patterns);
  } catch {
    patterns = void 0;
  }
  const json = tokenRecordJson({
    id: row.id,
    name: row.name,
    hash: row.hash,
    patterns,
    createdAt: Number(row.created_at),
    ...row.expires_at !== null ? { expiresAt: Number(row.expires_at) } : {},
    ...Number(row.web) === 1 ? { web: true } : {}
  });
  return readTokenRecord(json, row.id, row.last_used_at === null ? void 0 : Number(row.last_used_at));
}
var SELECT, SqliteTokenStore;
var init_tokens2 = __esm({
  "src/store/sqlite/tokens.ts"() {
    "use strict";
    init_token_record();
    SELECT = "SELECT id, name, hash, patterns, created_at, expires_at, last_used_at, web FROM tokens";
    SqliteTokenStore = class {
      #c;
      #run;
      /** `run` maps the driver's errors as the store does. */
      constructor(connection, run2) {
        this.#c = connection;
        this.#run = run2;
      }
      create(record2) {
        return this.#run(
          () => this.#c.write(() => {
            const result = this.#c.statement(
              "INSERT INTO tokens (id, name, hash, patterns, created_at, expires_at, web) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
            ).run(
              record2.id,
              record2.name,
              record2.hash,
              JSON.stringify(record2.patterns),
              record2.createdAt,
              record2.expiresAt ?? null,
              record2.web === true ? 1 : 0
            );
            return Number(result.changes) === 1;
          })
        );
      }
      get(id) {
        return this.#run(() => {
          const row = this.#c.statement(`${SELECT} WHERE id = ?`).get(id);
          return row ? fromRow(row) : void 0;
        });
      }
      list() {
        return this.#run(
          () => this.#c.statement(`${SELECT} ORDER BY created_at, id`).all().map(fromRow)
        );
      }
      revoke(nameOrId) {
        return this.#run(
          () => this.#c.write(() => {
            const row = this.#c.statement(`${SELECT} WHERE name = ?`).get(nameOrId) ?? this.#c.statement(`${SELECT} WHERE id = ?`).get(nameOrId);
            if (!row) return void 0;
            this.#c.statement("DELETE FROM tokens WHERE id = ?").run(row.id);
            return fromRow(row);
          })
        );
      }
      touch(id, at) {
        return this.#run(() => {
          this.#c.statement("UPDATE tokens SET last_used_at = ? WHERE id = ?").run(at, id);
        });
      }
    };
  }
});

// src/store/sqlite/transitions.ts
var SqliteTransitions;
var init_transitions2 = __esm({
  "src/store/sqlite/transitions.ts"() {
    "use strict";
    init_delivery_note();
    init_reply();
    init_shared();
    init_decisions2();
    init_record2();
    SqliteTransitions = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      /**
       * Expire a pending question in the running transaction (its expiry passed): it waits in the outbox to be
       * reported to the agent, like an answer.
       */
      #expire(question, now) {
        const closure = { at: now };
        const expired = Object.assign({}, question, { status: "expired", closure });
        this.#x.c.statement(
          `UPDATE questions SET status = 'expired', closure = ?, size = ?, ready_at = ?
         WHERE project = ? AND id = ? AND status = 'pending'`
        ).run(JSON.stringify(closure), deliveryEntryLength(expired), now, question.project, question.id);
        this.#x.dropDrafts(question.project, question.id);
        this.#x.event("expired", question.project, question.id, now);
        return expired;
      }
      /** Why a question cannot move to `target` now, or undefined when it can. Expires it when its time has passed. */
      #refused(question, target, now) {
        switch (refusal(question, target, now)) {
          case void 0:
            return void 0;
          case "already-answered":
            return { kind: "already-answered", question };
          case "not-pending":
            return { kind: "not-pending", question };
          case "past-expiry":
            return { kind: "not-pending", question: this.#expire(question, now) };
        }
      }
      answer(project, id, reply, by) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const question = this.#x.get(project, id);
            if (!question) return { kind: "unknown" };
            const now = this.#x.now();
            const { answer, entryLength } = measuredAnswerOf(question, reply, { by, at: now });
            const refused = this.#refused(question, "answered", now);
            if (refused) return refused;
            const answered = Object.assign({}, question, { status: "answered", answer });
            c.statement(
              `UPDATE questions SET status = 'answered', answer = ?, size = ?, ready_at = ?
             WHERE project = ? AND id = ?`
            ).run(JSON.stringify(answer), entryLength, now, project, id);
            this.#x.dropDrafts(project, id);
            indexDecision(this.#x, answered);
            this.#x.event("answered", project, id, now);
            return { kind: "won", question: answered };
          })
        );
      }
      #close(project, id, target, by) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const question = this.#x.get(project, id);
            if (!question) return { kind: "unknown" };
            const now = this.#x.now();
            const refused = this.#refused(question, target, now);
            if (refused) return refused;
            const closure = by ? { at: now, by } : { at: now };
            const closed = Object.assign({}, question, { status: target, closure });
            const dismissed = target === "dismissed";
            c.statement(
              `UPDATE questions SET status = ?, closure = ?, size = ?, ready_at = ?, done_at = ?
             WHERE project = ? AND id = ?`
            ).run(
              target,
              JSON.stringify(closure),
              dismissed ? deliveryEntryLength(closed) : null,
              dismissed ? now : null,
              dismissed ? null : now,
              project,
              id
            );
            this.#x.dropDrafts(project, id);
            this.#x.event(target, project, id, now);
            return { kind: "done", question: closed };
          })
        );
      }
      cancel(project, id) {
        return this.#close(project, id, "cancelled");
      }
      dismiss(project, id, by) {
        return this.#close(project, id, "dismissed", by);
      }
      remind(project, id, ordinal) {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const question = this.#x.get(project, id);
            if (!question) return { kind: "unknown" };
            if (question.status !== "pending" || question.expiresAt !== void 0 && question.expiresAt <= now) {
              return { kind: "not-pending", question };
            }
            if ((question.reminders ?? 0) !== ordinal - 1) return { kind: "already", question };
            c.statement("UPDATE questions SET reminders = ?, reminded_at = ? WHERE project = ? AND id = ?").run(
              ordinal,
              now,
              project,
              id
            );
            this.#x.event("reminded", project, id, now);
            return { kind: "reminded", question: Object.assign({}, question, { reminders: ordinal, remindedAt: now }) };
          })
        );
      }
      expireDue() {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const now = this.#x.now();
            const rows = c.statement(
              `SELECT ${QUESTION_COLUMNS} FROM questions q
             WHERE q.status = 'pending' AND q.expires_at IS NOT NULL AND q.expires_at <= ?`
            ).all(now);
            const due = this.#x.readMany(rows);
            for (const question of due) this.#expire(question, now);
            return due.length;
          })
        );
      }
      purgeExpired() {
        const { c } = this.#x;
        return this.#x.run(
          () => c.write(() => {
            const cutoff = this.#x.now() - (this.#x.options.retentionMs ?? RETENTION_MS);
            const finished = c.statement(
              `SELECT project, id FROM questions
             WHERE done_at IS NOT NULL AND done_at <= ?
               AND (status IN ('delivered', 'cancelled')
                    OR (status IN ('dismissed', 'expired') AND delivered_at IS NOT NULL))`
            ).all(cutoff);
            const dropQuestion = c.statement("DELETE FROM questions WHERE project = ? AND id = ?");
            const dropMessages = c.statement("DELETE FROM messages WHERE project = ? AND question_id = ?");
            for (const { project, id } of finished) {
              dropQuestion.run(project, id);
              dropMessages.run(project, id);
              this.#x.dropDrafts(project, id);
              unindexDecision(this.#x, project, id);
            }
            c.statement("DELETE FROM events WHERE at <= ?").run(cutoff);
            c.statement("DELETE FROM event_pending WHERE event_id NOT IN (SELECT id FROM events)").run();
            return finished.length;
          })
        );
      }
    };
  }
});

// src/store/sqlite/views.ts
function cursorParams(view, cursor) {
  if (view === "pending") {
    if (cursor === void 0) return { key: null, blocking_after: null, at: null, id: null, tag: null };
    const { key: key2, tag: tag2 } = cursor;
    return {
      key: key2,
      blocking_after: key2[0] === "0" ? 1 : 0,
      at: Number(key2.slice(1, 16)),
      id: Number(key2.slice(16)),
      tag: tag2
    };
  }
  if (cursor === void 0) return { key: null, at: null, id: null, tag: null };
  const { key, tag } = cursor;
  return { key, at: Number(key.slice(0, 15)), id: Number(key.slice(15)), tag };
}
function cursorOfRow(view, row) {
  const id = Number(row.id);
  const key = view === "pending" ? pendingKey(Number(row.view_blocking) === 1, Number(row.created_at), id) : closedKey(Number(row.view_closed_at ?? 0), id);
  return { key, tag: row.view_tag };
}
var PAGE_WHERE, PAGE_ORDER, VIEW_COLUMNS, SqliteViews;
var init_views2 = __esm({
  "src/store/sqlite/views.ts"() {
    "use strict";
    init_question();
    init_paging();
    init_shared();
    init_record2();
    PAGE_WHERE = {
      pending: `q.status = 'pending' AND q.project IN (SELECT value FROM json_each(@projects))
    AND (@blocking IS NULL OR q.blocking = @blocking)
    AND (@key IS NULL OR q.blocking < @blocking_after
      OR (q.blocking = @blocking_after AND (q.created_at, q.id, p.tag) > (@at, @id, @tag)))`,
      closed: `q.status IN (SELECT value FROM json_each(@statuses)) AND q.project IN (SELECT value FROM json_each(@projects))
    AND (@since IS NULL OR q.closed_at >= @since)
    AND (@key IS NULL OR (q.closed_at, q.id, p.tag) < (@at, @id, @tag))`
    };
    PAGE_ORDER = {
      pending: "q.blocking DESC, q.created_at, q.id, p.tag",
      closed: "q.closed_at DESC, q.id DESC, p.tag DESC"
    };
    VIEW_COLUMNS = "q.blocking AS view_blocking, q.closed_at AS view_closed_at, p.tag AS view_tag";
    SqliteViews = class {
      #x;
      constructor(context) {
        this.#x = context;
      }
      pageAcross(projects, query) {
        const { c } = this.#x;
        return this.#x.run(() => {
          const { view } = query;
          const limit = Math.max(1, Math.trunc(query.limit));
          const cursor = parseCursor(view, query.after);
          const projectList = JSON.stringify([...new Set(projects)]);
          const base = view === "pending" ? {
            projects: projectList,
            blocking: query.blocking === void 0 ? null : query.blocking ? 1 : 0
          } : { projects: projectList, statuses: JSON.stringify(viewStatuses(view)), since: query.since ?? null };
          const rows = c.statement(
            `SELECT ${QUESTION_COLUMNS}, ${VIEW_COLUMNS} FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === "pending" ? "pending" : "closed"]}
           ORDER BY ${PAGE_ORDER[view === "pending" ? "pending" : "closed"]} LIMIT @limit`
          ).all({ ...base, ...cursorParams(view, cursor), limit: limit + 1 });
          const follows = rows.length > limit;
          const questions = this.#x.readMany(rows.slice(0, limit));
          const lastRow = rows[Math.min(rows.length, limit) - 1];
          if (!follows || lastRow === void 0) return { questions, remaining: 0 };
          const last = cursorOfRow(view, lastRow);
          const { n } = c.statement(
            `SELECT count(*) AS n FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === "pending" ? "pending" : "closed"]}`
          ).get({ ...base, ...cursorParams(view, last) });
          return { questions, next: formatCursor(last), remaining: Number(n) };
        });
      }
      countAcross(projects) {
        return this.#x.run(() => {
          const rows = this.#x.c.statement(
            `SELECT q.project, q.status, q.blocking, count(*) AS n FROM questions q
           WHERE q.project IN (SELECT value FROM json_each(?)) GROUP BY 1, 2, 3`
          ).all(JSON.stringify([...new Set(projects)]));
          const counts = /* @__PURE__ */ new Map();
          for (const project of projects) counts.set(project, { blocking: 0, canWait: 0, closed: 0, answered: 0 });
          for (const row of rows) {
            const entry = counts.get(row.project);
            if (!entry) continue;
            const n = Number(row.n);
            if (row.status === "pending") {
              if (Number(row.blocking) === 1) entry.blocking += n;
              else entry.canWait += n;
            } else {
              entry.closed += n;
              if (row.status === "answered" || row.status === "delivered") entry.answered += n;
            }
          }
          return counts;
        });
      }
      listPage(project, query) {
        const { c } = this.#x;
        return this.#x.run(() => {
          const limit = Math.max(1, Math.trunc(query.limit));
          const cursor = parseListCursor(query.after);
          const where = `q.project = @project AND q.status IN (SELECT value FROM json_each(@statuses))
        AND (@blocking IS NULL OR q.blocking = @blocking)
        AND (@rank IS NULL OR (1 - q.blocking, q.id) > (@rank, @id))`;
          const base = {
            project,
            statuses: JSON.stringify(query.status ?? QUESTION_STATUSES),
            blocking: query.blocking === void 0 ? null : query.blocking ? 1 : 0
          };
          const rows = c.statement(
            `SELECT ${QUESTION_COLUMNS}, q.blocking AS view_blocking FROM questions q WHERE ${where}
           ORDER BY q.blocking DESC, q.id LIMIT @limit`
          ).all({ ...base, rank: cursor?.blockingFirst ?? null, id: cursor?.id ?? null, limit });
          const questions = this.#x.readMany(rows);
          const last = rows.at(-1);
          if (last === void 0) return { questions, remaining: 0 };
          const lastBlocking = Number(last.view_blocking) === 1;
          const { n } = c.statement(`SELECT count(*) AS n FROM questions q WHERE ${where}`).get({
            ...base,
            rank: lastBlocking ? 0 : 1,
            id: Number(last.id)
          });
          const remaining = Number(n);
          const next = `${lastBlocking ? "0" : "1"}.${Number(last.id)}`;
          return remaining > 0 ? { questions, next, remaining } : { questions, remaining };
        });
      }
      countQuestions(project) {
        return this.#x.run(() => {
          const rows = this.#x.c.statement(
            `SELECT status, json_extract(spec, '$.isBlocking') = 1 AS blocking, count(*) AS n FROM questions
           WHERE project = ? GROUP BY 1, 2`
          ).all(project);
          return tallyCounts(
            rows.map((row) => ({ status: row.status, blocking: Number(row.blocking) === 1, n: Number(row.n) }))
          );
        });
      }
    };
  }
});

// src/store/sqlite/sqlite-store.ts
var sqlite_store_exports = {};
__export(sqlite_store_exports, {
  RETENTION_MS: () => RETENTION_MS,
  SqliteStore: () => SqliteStore,
  openSqliteStore: () => openSqliteStore
});
async function openSqliteStore(options) {
  let db;
  const busyTimeoutMs = options.busyTimeoutMs ?? 2e3;
  try {
    if (options.path !== ":memory:") {
      (0, import_node_fs4.mkdirSync)((0, import_node_path5.dirname)(options.path), { recursive: true, mode: 448 });
      (0, import_node_fs4.closeSync)((0, import_node_fs4.openSync)(options.path, "a", 384));
    }
    db = openDatabase(options.path, {
      directory: options.path === ":memory:" ? void 0 : (0, import_node_path5.dirname)(options.path),
      busyTimeoutMs,
      ...options.engine !== void 0 ? { engine: options.engine } : {}
    });
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    migrate(db);
    return new SqliteStore(new SqliteConnection(db, options.pollIntervalMs ?? 25, busyTimeoutMs), options);
  } catch (error) {
    try {
      db?.close();
    } catch {
    }
    if (error instanceof SqliteEngineMissingError) throw error;
    const mapped = toStoreError2(error);
    throw mapped instanceof StoreUnavailableError ? mapped : new StoreUnavailableError({ cause: error });
  }
}
var import_node_fs4, import_node_path5, SqliteStore;
var init_sqlite_store = __esm({
  "src/store/sqlite/sqlite-store.ts"() {
    "use strict";
    import_node_fs4 = require("node:fs");
    import_node_path5 = require("node:path");
    init_store_unavailable_error();
    init_trail();
    init_connection2();
    init_context2();
    init_decisions2();
    init_delivery2();
    init_drafts3();
    init_driver();
    init_engine_missing_error();
    init_events2();
    init_failed_events3();
    init_leases2();
    init_questions2();
    init_schema();
    init_tokens2();
    init_transitions2();
    init_views2();
    init_shared();
    SqliteStore = class {
      #x;
      #questions;
      #views;
      #drafts;
      #transitions;
      #delivery;
      #events;
      #leases;
      #failures;
      #decisions;
      constructor(connection, options) {
        const x = new SqliteContext(connection, options);
        this.#x = x;
        this.#questions = new SqliteQuestions(x);
        this.#views = new SqliteViews(x);
        this.#drafts = new SqliteDrafts(x);
        this.#transitions = new SqliteTransitions(x);
        this.#delivery = new SqliteDelivery(x);
        this.#events = new SqliteEvents(x);
        this.#leases = new SqliteLeases(x);
        this.#failures = new SqliteFailures(x);
        this.#decisions = new SqliteDecisions(x);
      }
      // Questions (questions.ts)
      park(project, spec) {
        return this.#questions.park(project, spec);
      }
      get(project, id) {
        return this.#questions.get(project, id);
      }
      list(project, filter) {
        return this.#questions.list(project, filter);
      }
      listAcross(projects, filter) {
        return this.#questions.listAcross(projects, filter);
      }
      knownProjects() {
        return this.#questions.knownProjects();
      }
      projectByTag(tag) {
        return this.#questions.projectByTag(tag);
      }
      recordMessage(project, id, ref) {
        return this.#questions.recordMessage(project, id, ref);
      }
      // Views (views.ts)
      pageAcross(projects, query) {
        return this.#views.pageAcross(projects, query);
      }
      countAcross(projects) {
        return this.#views.countAcross(projects);
      }
      listPage(project, query) {
        return this.#views.listPage(project, query);
      }
      findDecisions(project, query) {
        return trailPage(this, [project], query);
      }
      similarDecisions(project, items, options) {
        return this.#decisions.similarDecisions(project, items, options);
      }
      countQuestions(project) {
        return this.#views.countQuestions(project);
      }
      // Drafts (drafts.ts)
      saveDraft(project, id, person, change) {
        return this.#drafts.saveDraft(project, id, person, change);
      }
      getDraft(project, id, person, member) {
        return this.#drafts.getDraft(project, id, person, member);
      }
      // Transitions (transitions.ts)
      answer(project, id, reply, by) {
        return this.#transitions.answer(project, id, reply, by);
      }
      cancel(project, id) {
        return this.#transitions.cancel(project, id);
      }
      dismiss(project, id, by) {
        return this.#transitions.dismiss(project, id, by);
      }
      remind(project, id, ordinal) {
        return this.#transitions.remind(project, id, ordinal);
      }
      expireDue() {
        return this.#transitions.expireDue();
      }
      purgeExpired() {
        return this.#transitions.purgeExpired();
      }
      // Delivery (delivery.ts)
      claimUndelivered(project, options) {
        return this.#delivery.claimUndelivered(project, options);
      }
      confirmClaim(project, claim, ids) {
        return this.#delivery.confirmClaim(project, claim, ids);
      }
      waitingOutcomes(project, options) {
        return this.#delivery.waitingOutcomes(project, options);
      }
      releaseClaim(project, claim, ids) {
        return this.#delivery.releaseClaim(project, claim, ids);
      }
      markDelivered(project, id, via) {
        return this.#delivery.markDelivered(project, id, via);
      }
      // Events (events.ts)
      consumer(group, consumerName, options) {
        return this.#events.consumer(group, consumerName, options);
      }
      tail() {
        return this.#events.tail();
      }
      watch(project) {
        return this.#events.watch(project);
      }
      waitWhilePending(project, id, options) {
        return this.#events.waitWhilePending(project, id, options);
      }
      // Leases (leases.ts)
      acquireLease(name, owner, ms) {
        return this.#leases.acquireLease(name, owner, ms);
      }
      releaseLease(name, owner) {
        return this.#leases.releaseLease(name, owner);
      }
      seizeLease(name, owner, ms) {
        return this.#leases.seizeLease(name, owner, ms);
      }
      // Failures (failed-events.ts)
      recordFailedEvent(group, event, failure2) {
        return this.#failures.recordFailedEvent(group, event, failure2);
      }
      failedEvents(options) {
        return this.#failures.failedEvents(options);
      }
      replayFailedEvents(group) {
        return this.#failures.replayFailedEvents(group);
      }
      takeReplayedEvents(group, count) {
        return this.#failures.takeReplayedEvents(group, count);
      }
      recordSurfaceFault(fault) {
        return this.#failures.recordSurfaceFault(fault);
      }
      clearSurfaceFaults(group, channels) {
        return this.#failures.clearSurfaceFaults(group, channels);
      }
      surfaceFaults() {
        return this.#failures.surfaceFaults();
      }
      // Tokens (tokens.ts)
      tokens() {
        return new SqliteTokenStore(this.#x.c, (work) => this.#x.run(work));
      }
      // The file
      ping() {
        return this.#x.run(() => {
          this.#x.c.statement("SELECT 1").get();
        });
      }
      /** A file has no connection to lose: a failure here had another cause. */
      async whenReady(_options) {
        return "ready";
      }
      async close() {
        await this.#events.close();
        this.#x.c.close();
      }
    };
  }
});

// src/agents/status-line/run.ts
var import_node_fs5 = require("node:fs");
var import_node_path6 = require("node:path");

// src/config/agent.ts
var import_node_os = require("node:os");
var import_node_path3 = require("node:path");

// src/core/token-shape.ts
var TOKEN_PATTERN = /^alt_([a-z2-7]{12})_([A-Za-z0-9_-]{43})$/;
var TOKEN_SHAPE = "alt_, 12 letters and digits, _ and 43 more characters";

// src/store/sqlite/path.ts
var import_node_path = require("node:path");
function defaultDatabasePath(env, homedir2) {
  const explicit = env.ASK_LATER_DB?.trim();
  if (explicit) return explicit;
  const state = env.XDG_STATE_HOME?.trim();
  if (state && (0, import_node_path.isAbsolute)(state)) return (0, import_node_path.join)(state, "ask-later", "inbox.db");
  return (0, import_node_path.join)(homedir2, ".local", "state", "ask-later", "inbox.db");
}

// src/config/config-error.ts
var ConfigError = class extends Error {
  name = "ConfigError";
};

// src/config/project.ts
var import_node_fs = require("node:fs");
var import_node_path2 = require("node:path");

// src/core/project.ts
function resolveProject(input, gitTopLevel) {
  const explicit = input.askLaterProject?.trim();
  if (explicit) {
    return explicit;
  }
  const given = input.claudeProjectDir;
  const dir = given !== void 0 && given.trim() !== "" ? given : input.cwd;
  return gitTopLevel(dir) ?? dir;
}

// src/config/project.ts
function findGitTopLevel(dir) {
  let current = canonicalPath(dir);
  for (; ; ) {
    const entry = (0, import_node_fs.statSync)((0, import_node_path2.join)(current, ".git"), { throwIfNoEntry: false });
    if (entry?.isDirectory() || entry?.isFile()) {
      return current;
    }
    const parent = (0, import_node_path2.dirname)(current);
    if (parent === current) {
      return void 0;
    }
    current = parent;
  }
}
function projectFromEnvironment(env, cwd) {
  const claudeProjectDir = env.CLAUDE_PROJECT_DIR;
  return resolveProject(
    {
      askLaterProject: env.ASK_LATER_PROJECT,
      claudeProjectDir: claudeProjectDir === void 0 || claudeProjectDir.trim() === "" ? void 0 : canonicalPath((0, import_node_path2.resolve)(cwd, claudeProjectDir)),
      cwd: canonicalPath(cwd)
    },
    findGitTopLevel
  );
}
function canonicalPath(path) {
  const absolute = (0, import_node_path2.resolve)(path);
  try {
    return import_node_fs.realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

// src/config/agent.ts
function describeUrl(value) {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return scheme ? `a ${scheme}: URL` : "something that is not a URL";
}
function loadStoreConfig(env, home = import_node_os.homedir) {
  const raw = env.REDIS_URL?.trim();
  if (!raw && env.ASK_LATER_URL?.trim()) {
    throw new ConfigError(
      "this command works on the store itself: set REDIS_URL (ASK_LATER_URL reaches serve's agent API, which offers only what agents need)"
    );
  }
  if (!raw) return Object.freeze({ store: Object.freeze({ kind: "sqlite", path: databasePath(env, home) }) });
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got ${describeUrl(raw)}`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got ${describeUrl(raw)}`);
  }
  const prefix = env.ASK_LATER_REDIS_PREFIX?.trim() || "al";
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) {
    throw new ConfigError(
      `ASK_LATER_REDIS_PREFIX must be 1–64 letters, digits or _ . : - (no braces), got ${prefix.length} characters`
    );
  }
  return Object.freeze({ store: Object.freeze({ kind: "redis", url: raw, prefix }) });
}
function loadAgentStoreConfig(env, home = import_node_os.homedir) {
  const redis = env.REDIS_URL?.trim();
  const envUrl = env.ASK_LATER_URL?.trim();
  if (redis && envUrl) {
    throw new ConfigError(
      "REDIS_URL and ASK_LATER_URL are both set: set REDIS_URL for the store itself, or ASK_LATER_URL and ASK_LATER_TOKEN for serve's agent API, not both"
    );
  }
  if (redis) return loadStoreConfig(env, home);
  const envToken = env.ASK_LATER_TOKEN?.trim();
  const pluginUrl = env.CLAUDE_PLUGIN_OPTION_SERVER_URL?.trim();
  const pluginToken = env.CLAUDE_PLUGIN_OPTION_TOKEN?.trim();
  const url = envUrl || pluginUrl;
  const token = envToken || pluginToken;
  if (!url && !token) return loadStoreConfig(env, home);
  const urlName = envUrl ? "ASK_LATER_URL" : "the plugin's server_url setting";
  const tokenName = envToken ? "ASK_LATER_TOKEN" : "the plugin's token setting";
  if (!url) {
    throw new ConfigError(`ASK_LATER_URL must be set with ${tokenName}: the URL of ask-later serve`);
  }
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    parsed = void 0;
  }
  if (!parsed || parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`${urlName} must be an http:// or https:// URL of ask-later serve, got ${describeUrl(url)}`);
  }
  if (!token) {
    throw new ConfigError(`ASK_LATER_TOKEN must be set with ${urlName}: a token from \`ask-later token create\``);
  }
  if (!TOKEN_PATTERN.test(token)) {
    throw new ConfigError(
      `${tokenName} must be a token from \`ask-later token create\` (${TOKEN_SHAPE}), got ${token.length} characters that are not one`
    );
  }
  return Object.freeze({ store: Object.freeze({ kind: "http", url, token }) });
}
function databasePath(env, home) {
  const explicit = env.ASK_LATER_DB?.trim();
  if (explicit && !(0, import_node_path3.isAbsolute)(explicit)) {
    throw new ConfigError(
      `ASK_LATER_DB must be an absolute path (every project's session must find the same file), got ${JSON.stringify(explicit.slice(0, 60))}`
    );
  }
  let dir = env.HOME?.trim() ?? "";
  if (!(0, import_node_path3.isAbsolute)(dir)) {
    try {
      dir = home();
    } catch {
      dir = "";
    }
  }
  const state = env.XDG_STATE_HOME?.trim();
  if (!explicit && !(state && (0, import_node_path3.isAbsolute)(state)) && !(0, import_node_path3.isAbsolute)(dir)) {
    throw new ConfigError(
      "the embedded store needs a home directory (HOME is not set): set ASK_LATER_DB to the database file, or REDIS_URL"
    );
  }
  return defaultDatabasePath(env, dir);
}
var DEADLINE_SETTINGS = {
  ASK_LATER_STATUS_DEADLINE_MS: { min: 100, max: 1e4 },
  ASK_LATER_HOOK_DEADLINE_MS: { min: 500, max: 4e3 }
};
function loadDeadline(env, name) {
  const value = name === "ASK_LATER_HOOK_DEADLINE_MS" ? env.ASK_LATER_HOOK_DEADLINE_MS : env.ASK_LATER_STATUS_DEADLINE_MS;
  const raw = value?.trim() ?? "";
  if (raw === "") return void 0;
  const { min, max } = DEADLINE_SETTINGS[name];
  const ms = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (ms >= min && ms <= max) return ms;
  const shown = raw.length > 20 ? `${raw.length} characters` : JSON.stringify(raw);
  throw new ConfigError(`${name} must be a whole number of milliseconds from ${min} to ${max}, got ${shown}`);
}

// src/agents/status-line/run.ts
init_agent_api_error();
init_project_refused_error();
init_token_refused_error();

// src/store/open.ts
async function openStore(location, options = {}) {
  if (location.kind === "http") {
    const { openHttpStore: openHttpStore2 } = await Promise.resolve().then(() => (init_http_store(), http_store_exports));
    return openHttpStore2({
      url: location.url,
      token: location.token,
      ...options.connectTimeoutMs !== void 0 ? { timeoutMs: options.connectTimeoutMs } : {}
    });
  }
  const shared = {
    ...options.now !== void 0 ? { now: options.now } : {},
    ...options.retentionMs !== void 0 ? { retentionMs: options.retentionMs } : {}
  };
  if (location.kind === "redis") {
    const { openRedisStore: openRedisStore2 } = await Promise.resolve().then(() => (init_redis_store(), redis_store_exports));
    return openRedisStore2({
      url: location.url,
      prefix: location.prefix,
      ...shared,
      ...options.connection !== void 0 ? { connection: options.connection } : {},
      ...options.connectTimeoutMs !== void 0 ? { connectTimeoutMs: options.connectTimeoutMs } : {}
    });
  }
  const { openSqliteStore: openSqliteStore2 } = await Promise.resolve().then(() => (init_sqlite_store(), sqlite_store_exports));
  return openSqliteStore2({
    path: location.path,
    ...shared,
    ...options.busyTimeoutMs !== void 0 ? { busyTimeoutMs: options.busyTimeoutMs } : {},
    ...options.pollIntervalMs !== void 0 ? { pollIntervalMs: options.pollIntervalMs } : {}
  });
}

// src/agents/status-line/run.ts
init_engine_missing_error();
init_store_unavailable_error();

// src/agents/hooks/deadline-error.ts
var DeadlineError = class extends Error {
  name = "DeadlineError";
};

// src/agents/hooks/deadline.ts
var Deadline = class {
  #ms;
  #timer;
  #endsAt;
  #cleanups = [];
  #rejects = /* @__PURE__ */ new Set();
  #expired = false;
  #step = "the hook";
  constructor(ms) {
    this.#ms = ms;
    this.#endsAt = performance.now() + ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }
  /** True once the timer has fired: nothing may be written to stdout any more. */
  get expired() {
    return this.#expired;
  }
  /** `work`, or a `DeadlineError` naming `step` if the deadline comes first (or has already passed). */
  race(work, step) {
    if (this.#expired) {
      work.catch(() => void 0);
      return Promise.reject(this.#error(step));
    }
    return new Promise((resolve3, reject) => {
      const onExpire = (error) => reject(error);
      this.#step = step;
      this.#rejects.add(onExpire);
      work.then(
        (value) => {
          this.#rejects.delete(onExpire);
          resolve3(value);
        },
        (error) => {
          this.#rejects.delete(onExpire);
          reject(error);
        }
      );
    });
  }
  /** Run `cleanup` when the deadline fires (at once if it already has). */
  onExpire(cleanup) {
    if (this.#expired) cleanup();
    else this.#cleanups.push(cleanup);
  }
  /**
   * Make sure at least `ms` remain (never shortens it). Used once the note is written: confirming it is what keeps
   * the answers from coming again, so it gets a short grace rather than being cut off by the deadline.
   */
  extend(ms) {
    if (this.#expired) return;
    const left = this.#endsAt - performance.now();
    if (left >= ms) return;
    clearTimeout(this.#timer);
    this.#endsAt = performance.now() + ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }
  /** Stop the timer: the run is over. */
  clear() {
    clearTimeout(this.#timer);
  }
  #expire() {
    this.#expired = true;
    const error = this.#error(this.#step);
    for (const reject of this.#rejects) reject(error);
    this.#rejects.clear();
    for (const cleanup of this.#cleanups.splice(0)) {
      try {
        cleanup();
      } catch {
      }
    }
  }
  #error(step) {
    return new DeadlineError(`${step} within ${(this.#ms / 1e3).toFixed(1)} s`);
  }
};

// src/agents/hooks/hook-io-error.ts
var HookIoError = class extends Error {
  name = "HookIoError";
};

// src/agents/hooks/input.ts
var STDIN_MAX_BYTES = 1024 * 1024;
function readStdin(stdin) {
  return new Promise((resolve3, reject) => {
    const chunks = [];
    let size = 0;
    const cleanup = () => {
      stdin.removeListener("data", onData);
      stdin.removeListener("end", onEnd);
      stdin.removeListener("error", onError);
    };
    const onData = (chunk) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > STDIN_MAX_BYTES) {
        cleanup();
        reject(new HookIoError(`stdin is larger than ${STDIN_MAX_BYTES / 1024 / 1024} MiB`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      resolve3(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = () => {
      cleanup();
      reject(new HookIoError("stdin could not be read"));
    };
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", onError);
  });
}

// src/agents/status-line/status-input-error.ts
var StatusInputError = class extends Error {
  name = "StatusInputError";
};

// src/agents/status-line/input.ts
function parseStatusInput(text) {
  if (text.trim() === "") return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StatusInputError("stdin is not JSON, expected Claude Code's status line JSON");
  }
  if (!isObject2(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    throw new StatusInputError(`stdin is JSON ${kind}, expected Claude Code's status line JSON (an object)`);
  }
  const workspace = isObject2(value.workspace) ? value.workspace : {};
  const projectDir = nonBlank(workspace.project_dir);
  const currentDir = nonBlank(workspace.current_dir) ?? nonBlank(value.cwd);
  return {
    ...projectDir === void 0 ? {} : { projectDir },
    ...currentDir === void 0 ? {} : { currentDir }
  };
}
function isObject2(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function nonBlank(value) {
  return typeof value === "string" && value.trim() !== "" ? value : void 0;
}

// src/agents/status-line/line.ts
function statusFigures(counts) {
  return {
    waiting: counts.pending.blocking + counts.pending.canWait,
    blocking: counts.pending.blocking,
    answered: counts.answered.blocking + counts.answered.canWait
  };
}
function renderStatusLine({ waiting, blocking, answered }) {
  const parts = [];
  if (waiting > 0) parts.push(blocking > 0 ? `${waiting} waiting, ${blocking} blocking` : `${waiting} waiting`);
  if (answered > 0) parts.push(`${answered} answered`);
  if (parts.length === 0) return "ask-later: no questions waiting";
  return `ask-later: ${parts.join(" · ")}${waiting > 0 ? " → ask-later inbox" : ""}`;
}

// src/agents/status-line/run.ts
var DEADLINE_MS = 300;
var MIN_RUN_MS = 100;
var SQLITE_MARGIN_MS = 30;
var EXIT_GRACE_MS = 50;
async function runStatus(io, env, cwd, options = {}) {
  io.stdout.on("error", ignore);
  io.stderr.on("error", ignore);
  let configured;
  let settingError;
  try {
    configured = loadDeadline(env, "ASK_LATER_STATUS_DEADLINE_MS");
  } catch (error) {
    settingError = error;
  }
  const budget = options.deadlineMs ?? Math.max(MIN_RUN_MS, (configured ?? DEADLINE_MS) - performance.now());
  const endsAt = performance.now() + budget;
  const deadline = new Deadline(budget);
  const seen = {};
  let line = "";
  try {
    if (settingError !== void 0) throw settingError;
    line = await run(io, env, cwd, { deadline, endsAt }, seen);
  } catch (error) {
    io.stderr.write(`ask-later status: ${describe2(error, seen)}
`);
  } finally {
    deadline.clear();
    stopReading(io.stdin);
  }
  io.stdout.write(`${line}
`);
  if (deadline.expired && options.ownsProcess !== false) exitSoonIfStuck();
  return 0;
}
async function run(io, env, cwd, { deadline, endsAt }, seen) {
  const tty = io.stdin.isTTY === true;
  const input = tty ? {} : parseStatusInput(await deadline.race(readStdin(io.stdin), "stdin did not end"));
  stopReading(io.stdin);
  const { store: location } = loadAgentStoreConfig(env);
  seen.store = location.kind;
  const project = projectFromEnvironment(
    input.projectDir === void 0 ? env : { ...env, CLAUDE_PROJECT_DIR: input.projectDir },
    input.currentDir === void 0 ? cwd : (0, import_node_path6.resolve)(cwd, input.currentDir)
  );
  if (location.kind === "sqlite" && !(0, import_node_fs5.existsSync)(location.path)) {
    return renderStatusLine({ waiting: 0, blocking: 0, answered: 0 });
  }
  const left = () => Math.max(1, Math.floor(endsAt - performance.now()));
  const opening = openStore(location, {
    // The bare RESP client: one socket, no reconnecting, for a command that lives a moment.
    connection: "minimal",
    connectTimeoutMs: left(),
    busyTimeoutMs: Math.max(1, left() - SQLITE_MARGIN_MS)
  });
  deadline.onExpire(() => {
    opening.then((store2) => store2.close()).catch(() => void 0);
  });
  const store = await deadline.race(opening, "the inbox did not answer");
  try {
    const counts = await deadline.race(store.countQuestions(project), "the inbox did not answer");
    return renderStatusLine(statusFigures(counts));
  } finally {
    await store.close().catch(() => void 0);
  }
}
function describe2(error, seen) {
  if (error instanceof DeadlineError) {
    return `${error.message} (${Math.round(performance.now())} ms after the process started)`;
  }
  if (error instanceof StatusInputError || error instanceof HookIoError || error instanceof ConfigError || error instanceof SqliteEngineMissingError || error instanceof TokenRefusedError || error instanceof ProjectRefusedError) {
    return error.message;
  }
  if (error instanceof AgentApiError) return `serve refused the call (${error.code})`;
  if (error instanceof StoreUnavailableError) {
    const why2 = errorCode(error.cause);
    const store = seen.store === "sqlite" ? "the embedded store" : seen.store === "http" ? "serve at ASK_LATER_URL" : "Redis at REDIS_URL";
    return `the inbox (${store}) is unreachable${why2 === void 0 ? "" : ` (${why2})`}`;
  }
  const why = errorCode(error);
  if (!(error instanceof Error)) return `unexpected ${typeof error}`;
  return `unexpected ${error.constructor.name || error.name}${why === void 0 ? "" : ` (${why})`}`;
}
function errorCode(error) {
  if (!(error instanceof Error)) return void 0;
  const code = error.code;
  if (typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  if (error.name === "ErrorReply") return /^([A-Z][A-Z_]{2,30})\b/.exec(error.message)?.[1];
  if (error.name === "ConnectionTimeoutError") return "connection timed out";
  return void 0;
}
function exitSoonIfStuck() {
  setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
}
function stopReading(stdin) {
  stdin.pause();
  const destroy = stdin.destroy;
  if (typeof destroy === "function") destroy.call(stdin);
}
function ignore() {
}

// status-entry.ts
runStatus(process, process.env, process.cwd()).then((code) => {
  process.exitCode = code;
});
