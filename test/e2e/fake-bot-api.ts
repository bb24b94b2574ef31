import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Telegram Bot API server for end-to-end tests, reached by the real bot through
 * BOT_API_ROOT over real HTTP. getUpdates behaves like Telegram's: an update is handed out again
 * on every call until a call passes an offset above its update_id, so a bot killed mid-update
 * gets it again after a restart.
 */

export interface FakeUser {
  id: number;
  first_name: string;
  language_code?: string;
  username?: string;
}

export interface SentMessage {
  message_id: number;
  chat_id: number;
  /** Current text (after edits), or the caption of a document. */
  text: string;
  reply_markup?: any;
  parse_mode?: string;
  method: string;
  edits: Array<{ text?: string; reply_markup?: any }>;
  deleted?: boolean;
  document?: { filename: string; content: string };
}

export interface ApiCall {
  method: string;
  token: string;
  payload: any;
  at: number;
}

export interface CallbackAnswer {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
  at: number;
}

export interface FakeBotApi {
  url: string;
  token: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  calls: ApiCall[];
  callbackAnswers: CallbackAnswer[];
  sendText(user: FakeUser, text: string, chatId?: number): any;
  sendSticker(user: FakeUser): any;
  sendPhoto(user: FakeUser): any;
  tapButton(user: FakeUser, message: SentMessage | number, callbackData: string): any;
  enqueueRaw(update: any): any;
  /** Updates enqueued inside `fn` are handed out together, in one getUpdates answer. */
  batch(fn: () => void): void;
  messagesTo(chatId: number): SentMessage[];
  waitForMessage(chatId: number, predicate: (m: SentMessage) => boolean, timeoutMs?: number): Promise<SentMessage>;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  /** Every update confirmed by the bot and no Bot API call for `quietMs`. */
  waitForIdle(quietMs?: number, timeoutMs?: number): Promise<void>;
  allOutgoingText(): string;
  confirmedOffset(): number;
  pendingUpdates(): number;
  failNext(method: string, error: { error_code: number; description: string; parameters?: any }): void;
  blockChat(chatId: number): void;
}

const BOT_USER = {
  id: 999000,
  is_bot: true,
  first_name: "TopupTestBot",
  username: "topup_test_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};

export function createFakeBotApi(opts: { token?: string } = {}): FakeBotApi {
  const token = opts.token ?? "123456:TEST-fake-token";
  const calls: ApiCall[] = [];
  const callbackAnswers: CallbackAnswer[] = [];
  const queue: any[] = [];
  const messages = new Map<number, SentMessage[]>();
  const messageIds = new Map<number, number>();
  const openCallbacks = new Set<string>();
  const failures = new Map<string, { error_code: number; description: string; parameters?: any }>();
  const blocked = new Set<number>();
  const waiters = new Set<() => void>();
  const polls = new Set<() => void>();
  let nextUpdateId = 1;
  let confirmed = 0;
  let callbackSeq = 0;
  let batching = 0;
  let lastCallAt = Date.now();
  let server: Server | undefined;
  let url = "";

  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const wakePolls = () => {
    if (batching > 0) return;
    for (const p of [...polls]) p();
  };
  const nextMessageId = (chatId: number) => {
    const id = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, id);
    return id;
  };
  const chatOf = (user: FakeUser, chatId?: number) =>
    chatId === undefined || chatId === user.id
      ? { id: user.id, type: "private", first_name: user.first_name }
      : { id: chatId, type: "group", title: "Shop group" };
  const now = () => Math.floor(Date.now() / 1000);

  function enqueueRaw(update: any) {
    const full = { update_id: nextUpdateId++, ...update };
    queue.push(full);
    wakePolls();
    return full;
  }

  function userMessage(user: FakeUser, extra: any, chatId?: number) {
    const chat = chatOf(user, chatId);
    return enqueueRaw({ message: { message_id: nextMessageId(chat.id), date: now(), chat, from: { is_bot: false, ...user }, ...extra } });
  }

  function botMessageObject(m: SentMessage) {
    return {
      message_id: m.message_id,
      date: now(),
      chat: { id: m.chat_id, type: "private" },
      from: BOT_USER,
      text: m.text,
      ...(m.reply_markup === undefined ? {} : { reply_markup: m.reply_markup }),
    };
  }

  function findMessage(chatId: number, messageId: number) {
    return messages.get(chatId)?.find((m) => m.message_id === messageId && m.deleted !== true);
  }

  function record(chatId: number, method: string, payload: any, extra: Partial<SentMessage> = {}): SentMessage {
    const m: SentMessage = {
      message_id: nextMessageId(chatId),
      chat_id: chatId,
      text: String(payload.text ?? payload.caption ?? ""),
      reply_markup: typeof payload.reply_markup === "string" ? JSON.parse(payload.reply_markup) : payload.reply_markup,
      parse_mode: payload.parse_mode,
      method,
      edits: [],
      ...extra,
    };
    const list = messages.get(chatId) ?? [];
    list.push(m);
    messages.set(chatId, list);
    return m;
  }

  type Answer = { ok: true; result: any } | { ok: false; error_code: number; description: string; parameters?: any };
  const bad = (description: string): Answer => ({ ok: false, error_code: 400, description: `Bad Request: ${description}` });

  async function handle(method: string, payload: any, req: IncomingMessage, res: ServerResponse): Promise<Answer | undefined> {
    const failure = failures.get(method);
    if (failure !== undefined) {
      failures.delete(method);
      return { ok: false, ...failure };
    }
    switch (method) {
      case "getMe":
        return { ok: true, result: BOT_USER };
      case "getUpdates": {
        const offset = Number(payload.offset ?? 0);
        if (offset > 0) {
          // Like Telegram: an offset confirms every update below it, for good.
          while (queue.length > 0 && queue[0].update_id < offset) queue.shift();
          confirmed = Math.max(confirmed, offset - 1);
          notify();
        }
        const limit = Math.min(Number(payload.limit ?? 100), 100);
        const pending = () => queue.filter((u) => u.update_id >= offset).slice(0, limit);
        if (pending().length > 0 && batching === 0) return { ok: true, result: pending() };
        const timeoutS = Math.min(Number(payload.timeout ?? 0), 2);
        if (timeoutS <= 0) return { ok: true, result: batching === 0 ? pending() : [] };
        // Long poll: answer as soon as something arrives, or empty after the timeout.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            polls.delete(done);
            resolve();
          };
          const timer = setTimeout(done, timeoutS * 1000);
          polls.add(done);
          req.once("close", done);
        });
        if (res.destroyed) return undefined;
        return { ok: true, result: batching === 0 ? pending() : [] };
      }
      case "sendMessage": {
        const chatId = Number(payload.chat_id);
        if (blocked.has(chatId)) return { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" };
        if (typeof payload.text !== "string" || payload.text.trim() === "") return bad("message text is empty");
        const m = record(chatId, method, payload);
        return { ok: true, result: botMessageObject(m) };
      }
      case "sendDocument":
      case "sendPhoto": {
        const chatId = Number(payload.chat_id);
        const file = payload.__file as { filename: string; content: string } | undefined;
        const m = record(chatId, method, payload, file === undefined ? {} : { document: file });
        return { ok: true, result: { ...botMessageObject(m), document: { file_id: `f${m.message_id}`, file_name: file?.filename } } };
      }
      case "editMessageText":
      case "editMessageReplyMarkup": {
        const m = findMessage(Number(payload.chat_id), Number(payload.message_id));
        if (m === undefined) return bad("message to edit not found");
        const text = method === "editMessageText" ? String(payload.text ?? "") : m.text;
        const markup = payload.reply_markup === undefined ? undefined : typeof payload.reply_markup === "string" ? JSON.parse(payload.reply_markup) : payload.reply_markup;
        const sameMarkup = JSON.stringify(markup ?? { inline_keyboard: [] }) === JSON.stringify(m.reply_markup ?? { inline_keyboard: [] });
        if (text === m.text && sameMarkup) {
          return bad("message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message");
        }
        m.edits.push({ text: m.text, reply_markup: m.reply_markup });
        m.text = text;
        m.reply_markup = markup;
        return { ok: true, result: botMessageObject(m) };
      }
      case "deleteMessage": {
        const m = findMessage(Number(payload.chat_id), Number(payload.message_id));
        if (m === undefined) return bad("message to delete not found");
        m.deleted = true;
        return { ok: true, result: true };
      }
      case "answerCallbackQuery": {
        const id = String(payload.callback_query_id);
        if (!openCallbacks.has(id)) return bad("query is too old and response timeout expired or query ID is invalid");
        openCallbacks.delete(id);
        callbackAnswers.push({ callback_query_id: id, text: payload.text, show_alert: payload.show_alert, at: Date.now() });
        return { ok: true, result: true };
      }
      default:
        return { ok: true, result: true };
    }
  }

  async function readPayload(req: IncomingMessage): Promise<any> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const type = req.headers["content-type"] ?? "";
    if (raw.length === 0) return {};
    if (type.includes("application/json")) return JSON.parse(raw.toString("utf8"));
    if (type.includes("multipart/form-data")) {
      const form = await new Response(raw, { headers: { "content-type": type } }).formData();
      const payload: any = {};
      for (const [key, value] of form.entries()) {
        if (typeof value === "string") {
          payload[key] = /^[[{]/.test(value) ? safeJson(value) : value;
        } else {
          payload.__file = { filename: (value as File).name, content: await (value as File).text() };
        }
      }
      return payload;
    }
    return Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
  }

  const api: FakeBotApi = {
    get url() {
      return url;
    },
    token,
    calls,
    callbackAnswers,
    async start() {
      server = createServer(async (req, res) => {
        const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(new URL(req.url ?? "/", "http://x").pathname);
        const reply = (status: number, body: unknown) => {
          if (res.destroyed) return;
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        };
        if (match === null) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
        const [, callToken, method] = match;
        let payload: any;
        try {
          payload = await readPayload(req);
        } catch {
          return reply(400, { ok: false, error_code: 400, description: "Bad Request: invalid body" });
        }
        if (callToken !== token) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
        lastCallAt = Date.now();
        calls.push({ method: method!, token: callToken!, payload, at: lastCallAt });
        const answer = await handle(method!, payload, req, res);
        lastCallAt = Date.now();
        notify();
        if (answer === undefined) return;
        reply(answer.ok ? 200 : answer.error_code, answer);
      });
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    },
    async stop() {
      for (const p of [...polls]) p();
      if (server === undefined) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    sendText(user, text, chatId) {
      const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
      return userMessage(user, { text, ...(command === null ? {} : { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] }) }, chatId);
    },
    sendSticker(user) {
      return userMessage(user, { sticker: { file_id: "sticker-1", file_unique_id: "s1", type: "regular", width: 512, height: 512, is_animated: false, is_video: false, emoji: "👍" } });
    },
    sendPhoto(user) {
      return userMessage(user, { photo: [{ file_id: "photo-1", file_unique_id: "p1", width: 90, height: 90 }] });
    },
    tapButton(user, message, callbackData) {
      const m = typeof message === "number" ? findMessage(user.id, message) : message;
      const id = `cb-${++callbackSeq}`;
      openCallbacks.add(id);
      const chatId = m?.chat_id ?? user.id;
      const current = m === undefined ? undefined : findMessage(chatId, m.message_id) ?? m;
      return enqueueRaw({
        callback_query: {
          id,
          from: { is_bot: false, ...user },
          chat_instance: `ci-${chatId}`,
          ...(current === undefined ? {} : { message: botMessageObject(current) }),
          data: callbackData,
        },
      });
    },
    enqueueRaw(update) {
      if (update.callback_query?.id !== undefined) openCallbacks.add(String(update.callback_query.id));
      return enqueueRaw(update);
    },
    batch(fn) {
      batching++;
      try {
        fn();
      } finally {
        batching--;
        wakePolls();
      }
    },
    messagesTo(chatId) {
      return (messages.get(chatId) ?? []).filter((m) => m.deleted !== true);
    },
    waitForMessage(chatId, predicate, timeoutMs = 15_000) {
      let found: SentMessage | undefined;
      return api
        .waitFor(() => {
          found = api.messagesTo(chatId).find(predicate);
          return found !== undefined;
        }, timeoutMs)
        .then(() => found!)
        .catch(() => {
          const recent = api.messagesTo(chatId).slice(-5).map((m) => `  #${m.message_id}: ${m.text.slice(0, 200)}`).join("\n");
          throw new Error(`no matching bot message in chat ${chatId} within ${timeoutMs} ms; last messages:\n${recent}`);
        });
    },
    waitFor(condition, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!condition()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`condition not met within ${timeoutMs} ms`));
        }, timeoutMs);
        const poll = setInterval(check, 50);
        const cleanup = () => {
          clearTimeout(timer);
          clearInterval(poll);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    waitForIdle(quietMs = 300, timeoutMs = 15_000) {
      return api.waitFor(() => queue.length === 0 && Date.now() - lastCallAt >= quietMs && polls.size > 0, timeoutMs);
    },
    allOutgoingText() {
      return JSON.stringify(calls.filter((c) => c.method !== "getUpdates").map((c) => c.payload)) + JSON.stringify(callbackAnswers);
    },
    confirmedOffset: () => confirmed,
    pendingUpdates: () => queue.length,
    failNext(method, error) {
      failures.set(method, error);
    },
    blockChat(chatId) {
      blocked.add(chatId);
    },
  };
  return api;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
