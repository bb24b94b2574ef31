import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Update, UserFromGetMe } from "grammy/types";
import { request as httpPost } from "undici";

/**
 * A fake Telegram Bot API server for end-to-end tests, reached by the real bot over real HTTP
 * (grammY: `new Bot(token, { client: { apiRoot: fake.url } })`, or BOT_API_ROOT for the process).
 *
 * getUpdates behaves like Telegram's: an update is handed out again on every call until a call
 * passes an offset above its update_id, so a bot killed mid-update gets it again after a restart.
 * An empty getUpdates is held (long poll, at most `maxPollSeconds`) and answered as soon as an
 * update arrives; a newer getUpdates ends the held one with 409 Conflict, as Telegram does.
 *
 * The Bot API's checks that bots trip over in production are reproduced: HTML that Telegram
 * cannot parse, empty or over-long texts, callback_data over 64 bytes, "message is not modified",
 * editing a message that is not there, answering a callback query twice, a user who blocked the bot.
 */

/** A PNG image of one pixel: what a photo a fake user sends is, unless a test gives its bytes. */
export const ONE_PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export interface FakeUser {
  id: number;
  first_name: string;
  last_name?: string;
  language_code?: string;
  username?: string;
}

export interface SentMessage {
  message_id: number;
  chat_id: number;
  /** Current text as the bot sent it (after edits, HTML tags included), or the caption of a file. */
  text: string;
  /** Current text as the user sees it: tags removed and entities decoded when parse_mode is HTML. */
  plain_text: string;
  reply_markup?: any;
  parse_mode?: string;
  /** Entities the bot passed, or the ones its HTML made. */
  entities?: any;
  /** The sending method: sendMessage, sendDocument, sendPhoto, … */
  method: string;
  /** The message this one replies to (reply_parameters), when the bot sent it as a reply. */
  reply_to_message_id?: number;
  /** The forum topic the bot sent it to (message_thread_id), if any. */
  message_thread_id?: number;
  /** Every successful edit in order, each with the text and markup it set. */
  edits: Array<{ text?: string; reply_markup?: any }>;
  deleted?: boolean;
  /** For sendDocument/sendPhoto/…: the uploaded file (multipart), or the file id/URL sent as a string. */
  document?: { filename: string; content: string; bytes?: Buffer };
  date: number;
}

export interface ApiCall {
  method: string;
  token: string;
  payload: any;
  at: number;
  /** What the fake answered, once it has. */
  answer?: ApiAnswer;
  /**
   * Which bot made it, when its root carries a name (`BOT_API_ROOT=<url>/via/<name>`): a test
   * running several bot processes can tell whose call it was.
   */
  via?: string;
}

export type ApiAnswer =
  { ok: true; result: any } | { ok: false; error_code: number; description: string; parameters?: any };

export interface ApiError {
  error_code: number;
  description: string;
  parameters?: any;
}

export interface CallbackAnswer {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
  url?: string;
  at: number;
}

export interface FakeBotApi {
  /** http://127.0.0.1:PORT, once started. */
  readonly url: string;
  /** The only token accepted; others get 401 Unauthorized. */
  readonly token: string;
  readonly botUser: UserFromGetMe;
  start(): Promise<void>;
  /** Ends held long polls and every connection, then closes the server. Stop bots first. */
  stop(): Promise<void>;
  /** Every call, in order (wrong tokens included, getUpdates included). */
  calls: ApiCall[];
  callbackAnswers: CallbackAnswer[];

  // User actions: each enqueues one update (update_id increasing) and returns it.
  /** A text message; private chat (chat.id = user.id) unless chatId is given. A leading /command gets a bot_command entity. */
  sendText(user: FakeUser, text: string, chatId?: number, threadId?: number): Update;
  /**
   * A text message that replies to a message of the chat (a bot message, as a user's client does
   * when the bot asked with force_reply), in a group unless chatId is the user's own.
   */
  replyText(user: FakeUser, text: string, to: SentMessage, chatId?: number): Update;
  /** The user edits a message they sent (an `edited_message` update with the new text). */
  editText(user: FakeUser, sent: Update, text: string): Update;
  sendSticker(user: FakeUser, chatId?: number): Update;
  /**
   * A photo. `photo`: its ids (the same `fileUniqueId` is the same picture sent again); `caption`
   * (a leading /command gets a bot_command entity); `replyTo`: a bot message it answers.
   */
  sendPhoto(
    user: FakeUser,
    chatId?: number,
    photo?: { fileId?: string; fileUniqueId?: string; caption?: string; replyTo?: SentMessage; bytes?: Buffer },
  ): Update;
  /**
   * A document the user sends: getFile and the file URL (`/file/bot<token>/<file_path>`) serve its
   * content. `size` overrides the size Telegram reports (a file too large to fetch).
   */
  sendDocument(
    user: FakeUser,
    doc: { fileName: string; content: string; mimeType?: string; size?: number; replyTo?: SentMessage },
    chatId?: number,
  ): Update;
  /** A callback_query with a fresh id, carrying the bot message as it is now (a number is a message_id in the user's private chat). */
  tapButton(user: FakeUser, message: SentMessage | number, callbackData: string): Update;
  /** The same update content again under a new update_id (a callback query's id is answerable again). */
  redeliver(update: Update): Update;
  /** Any update; update_id is assigned unless given. A callback_query's id becomes answerable. */
  enqueueRaw(update: any): any;
  /** Updates enqueued inside `fn` are handed out together, in one getUpdates answer. */
  batch(fn: () => void): void;
  /** A user who blocked the bot: sending to this chat fails with 403. */
  blockChat(chatId: number): void;
  unblockChat(chatId: number): void;

  // Observing.
  /** The bot's messages in that chat, in order, as they are now (deleted ones left out). */
  messagesTo(chatId: number): SentMessage[];
  lastMessageTo(chatId: number): SentMessage | undefined;
  /**
   * Resolves with the first bot message in the chat that matches now; failing that, with the
   * first earlier version (before an edit) that matched, as a snapshot. Waits for new messages and
   * edits until the timeout (default 15 s), then rejects listing the chat's last messages.
   */
  waitForMessage(chatId: number, predicate: (m: SentMessage) => boolean, timeoutMs?: number): Promise<SentMessage>;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  /** Every update confirmed, a getUpdates held, and no other Bot API call for `quietMs`. */
  waitForIdle(quietMs?: number, timeoutMs?: number): Promise<void>;
  /** The callback_data of the button whose label matches; throws listing the labels otherwise. */
  buttonData(message: SentMessage, label: RegExp | string): string;
  /** Everything the bot sent (texts, markup, captions, files, callback answers) as one string, for "no secret leaked" checks. */
  allOutgoingText(): string;
  /** The highest offset the bot passed to getUpdates (every update below it is confirmed); 0 before any. */
  confirmedOffset(): number;
  /** Updates not yet confirmed. */
  pendingUpdates(): number;
  /** A getUpdates is being held (long poll) right now. */
  isPolling(): boolean;
  /** The next call of `method` fails once with this error (several calls queue up), e.g. 429 with parameters.retry_after. */
  failNext(method: string, error: ApiError): void;
  /**
   * `fn` runs after a call was carried out (a message sent is in the chat, as the user sees it) and
   * before its answer goes back to the bot, which waits for it: a test can kill the bot in the
   * moment when Telegram has its message and the bot does not know it yet. Removed by the function
   * it returns.
   */
  beforeAnswer(fn: (call: ApiCall) => void | Promise<void>): () => void;

  // Webhook delivery, as Telegram does it once setWebhook was called.
  /**
   * Posts every unconfirmed update to the webhook (`via` instead of the registered URL: a proxy
   * in front of the bots), with the registered secret token, until it is answered 2xx; a failed
   * POST (an error status, a broken connection) is tried again after `retryMs`. The updates of
   * one chat go one at a time, in order; different chats at once (at most `maxConnections`).
   */
  deliverWebhooks(opts?: {
    via?: string;
    retryMs?: number;
    maxConnections?: number;
    /** True: after a 2xx, the update is posted once more (Telegram did not get the answer). */
    again?: () => boolean;
  }): void;
  /** Stops posting (POSTs in flight finish). */
  stopDelivering(): Promise<void>;
  /** The secret_token of the last setWebhook ("" before any). */
  webhookSecret(): string;
  /** Every webhook POST, in the order answered: the update id and the status (0: no answer). */
  webhookPosts: Array<{ updateId: number; status: number }>;
  /** The highest update_id handed out so far (updates are numbered 1, 2, …). */
  lastUpdateId(): number;
}

export interface FakeBotApiOptions {
  token?: string;
  botUser?: Partial<UserFromGetMe>;
  /** Cap on how long an empty getUpdates is held, whatever timeout the bot asks for. Default 2. */
  maxPollSeconds?: number;
}

const DEFAULT_BOT_USER: UserFromGetMe = {
  id: 999000,
  is_bot: true,
  first_name: "TopupTestBot",
  username: "topup_test_bot",
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
} as UserFromGetMe;

const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
const CONFLICT = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running";
const WEBHOOK_ACTIVE =
  "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first";

/** Fields that carry JSON when a call comes as form data (multipart or urlencoded). */
const JSON_FIELDS = new Set([
  "reply_markup",
  "entities",
  "caption_entities",
  "reply_parameters",
  "link_preview_options",
  "allowed_updates",
  "commands",
  "scope",
  "menu_button",
  "media",
  "results",
]);

export function createFakeBotApi(opts: FakeBotApiOptions = {}): FakeBotApi {
  const token = opts.token ?? "123456:TEST-fake-token";
  const botUser = { ...DEFAULT_BOT_USER, ...opts.botUser } as UserFromGetMe;
  const botFrom = { id: botUser.id, is_bot: true, first_name: botUser.first_name, username: botUser.username };
  const maxPollSeconds = opts.maxPollSeconds ?? 2;

  const calls: ApiCall[] = [];
  const callbackAnswers: CallbackAnswer[] = [];
  /** Unconfirmed updates, by update_id ascending. */
  let queue: any[] = [];
  const messages = new Map<number, SentMessage[]>();
  const originals = new WeakMap<
    SentMessage,
    { text: string; reply_markup?: any; parse_mode?: string; entities?: any }
  >();
  const messageIds = new Map<number, number>();
  const chats = new Map<number, any>();
  const openCallbacks = new Set<string>();
  const failures = new Map<string, ApiError[]>();
  const answerHooks = new Set<(call: ApiCall) => void | Promise<void>>();
  const blocked = new Set<number>();
  const commands = new Map<string, unknown>();
  const waiters = new Set<() => void>();
  let webhookUrl = "";
  let webhookSecretToken = "";
  const webhookPosts: Array<{ updateId: number; status: number }> = [];
  let delivery: { via?: string; retryMs: number; maxConnections: number; again?: () => boolean } | undefined;
  /** Chats with a POST in flight or waiting to be tried again. */
  const chatsBusy = new Set<string>();
  const inFlightPosts = new Set<Promise<void>>();
  let held:
    { finish: (how: "wake" | "timeout" | "closed" | "conflict") => void; offset: number; limit: number } | undefined;
  let nextUpdateId = 1;
  let confirmed = 0;
  let callbackSeq = 0;
  /** Documents users sent, by file id. */
  const files = new Map<string, { content: string | Buffer; size: number }>();
  let fileSeq = 0;
  let lastActivityAt = Date.now();
  let server: Server | undefined;
  let url = "";

  const now = () => Math.floor(Date.now() / 1000);
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const nextMessageId = (chatId: number) => {
    const id = (messageIds.get(chatId) ?? 0) + 1;
    messageIds.set(chatId, id);
    return id;
  };
  const pendingFrom = (offset: number, limit: number) => queue.filter((u) => u.update_id >= offset).slice(0, limit);

  function chatFor(chatId: number): any {
    return (
      chats.get(chatId) ??
      (chatId > 0 ? { id: chatId, type: "private" } : { id: chatId, type: "supergroup", title: "Shop group" })
    );
  }

  function userChat(user: FakeUser, chatId?: number): any {
    const chat =
      chatId === undefined || chatId === user.id
        ? {
            id: user.id,
            type: "private",
            first_name: user.first_name,
            ...(user.last_name === undefined ? {} : { last_name: user.last_name }),
            ...(user.username === undefined ? {} : { username: user.username }),
          }
        : chatFor(chatId);
    chats.set(chat.id, chat);
    return chat;
  }

  const fromUser = (user: FakeUser) => ({ is_bot: false, ...user });

  function wake() {
    if (held !== undefined && pendingFrom(held.offset, held.limit).length > 0) held.finish("wake");
  }

  function enqueue(update: any): any {
    const full = { update_id: update.update_id ?? nextUpdateId, ...update };
    if (typeof full.update_id !== "number") full.update_id = nextUpdateId;
    nextUpdateId = Math.max(nextUpdateId, full.update_id + 1);
    queue.push(full);
    queue.sort((a, b) => a.update_id - b.update_id);
    if (full.callback_query?.id !== undefined) openCallbacks.add(String(full.callback_query.id));
    pump();
    // The held poll answers in a later microtask, so updates enqueued together go out together.
    wake();
    return full;
  }

  /** The chat an update belongs to, for the webhook's one-at-a-time order per chat. */
  function chatKeyOf(update: any): string {
    const body: any = Object.values(update).find((v) => typeof v === "object" && v !== null);
    return String(body?.chat?.id ?? body?.message?.chat?.id ?? body?.from?.id ?? "other");
  }

  /** Posts what can be posted now (webhook delivery on). */
  function pump(): void {
    const d = delivery;
    if (d === undefined || webhookUrl === "") return;
    for (const update of queue) {
      if (chatsBusy.size >= d.maxConnections) return;
      const chat = chatKeyOf(update);
      if (chatsBusy.has(chat)) continue;
      chatsBusy.add(chat);
      const work = post(update, d).finally(() => inFlightPosts.delete(work));
      inFlightPosts.add(work);
    }
  }

  async function post(update: any, d: { via?: string; retryMs: number; again?: () => boolean }): Promise<void> {
    const chat = chatKeyOf(update);
    let status = 0;
    try {
      const r = await httpPost(d.via ?? webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": webhookSecretToken },
        body: JSON.stringify(update),
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      status = r.statusCode;
      await r.body.dump();
    } catch {
      status = 0;
    }
    webhookPosts.push({ updateId: update.update_id, status });
    if (status >= 200 && status < 300 && d.again?.() === true) {
      // The answer "got lost": Telegram posts the same update again, as a fresh request.
      await post(update, { ...d, again: () => false });
      return;
    }
    if (status >= 200 && status < 300) {
      queue = queue.filter((u) => u !== update);
      confirmed = Math.max(confirmed, update.update_id + 1);
      chatsBusy.delete(chat);
      lastActivityAt = Date.now();
      notify();
      pump();
      return;
    }
    // Telegram tries again later; the chat's later updates wait behind this one.
    setTimeout(() => {
      chatsBusy.delete(chat);
      pump();
    }, d.retryMs).unref();
  }

  function commandEntities(text: string): any {
    const command = /^\/[A-Za-z0-9_]{1,32}(@[A-Za-z0-9_]+)?/.exec(text);
    return command === null ? {} : { entities: [{ type: "bot_command", offset: 0, length: command[0].length }] };
  }

  function userMessage(user: FakeUser, extra: any, chatId?: number): Update {
    const chat = userChat(user, chatId);
    return enqueue({
      message: { message_id: nextMessageId(chat.id), date: now(), chat, from: fromUser(user), ...extra },
    });
  }

  /** The Message object Telegram shows for a bot message: parsed text and entities, current markup. */
  function botMessageObject(m: SentMessage): any {
    const isText = m.method === "sendMessage";
    const body = isText ? { text: m.plain_text } : m.plain_text === "" ? {} : { caption: m.plain_text };
    const entities =
      m.entities === undefined || (m.entities as unknown[]).length === 0
        ? {}
        : { [isText ? "entities" : "caption_entities"]: m.entities };
    return {
      message_id: m.message_id,
      date: m.date,
      chat: chatFor(m.chat_id),
      from: botFrom,
      ...body,
      ...entities,
      ...(m.edits.length > 0 ? { edit_date: now() } : {}),
      ...(m.message_thread_id === undefined ? {} : { message_thread_id: m.message_thread_id, is_topic_message: true }),
      ...(m.document === undefined ? {} : fileField(m)),
      ...(m.reply_markup === undefined || m.reply_markup.inline_keyboard === undefined
        ? {}
        : { reply_markup: m.reply_markup }),
    };
  }

  function fileField(m: SentMessage): any {
    const id = `file-${m.chat_id}-${m.message_id}`;
    if (m.method === "sendPhoto") return { photo: [{ file_id: id, file_unique_id: id, width: 90, height: 90 }] };
    return { document: { file_id: id, file_unique_id: id, file_name: m.document?.filename } };
  }

  function findMessage(chatId: number, messageId: number) {
    return messages.get(chatId)?.find((m) => m.message_id === messageId && m.deleted !== true);
  }

  function record(
    chatId: number,
    method: string,
    payload: any,
    rendered: Rendered,
    extra: Partial<SentMessage> = {},
  ): SentMessage {
    const m: SentMessage = {
      message_id: nextMessageId(chatId),
      chat_id: chatId,
      text: rendered.raw,
      plain_text: rendered.plain,
      ...(payload.reply_markup === undefined ? {} : { reply_markup: payload.reply_markup }),
      ...(payload.reply_parameters?.message_id === undefined
        ? {}
        : { reply_to_message_id: Number(payload.reply_parameters.message_id) }),
      ...(payload.parse_mode === undefined ? {} : { parse_mode: payload.parse_mode }),
      ...(rendered.entities === undefined ? {} : { entities: rendered.entities }),
      ...(payload.message_thread_id === undefined ? {} : { message_thread_id: Number(payload.message_thread_id) }),
      method,
      edits: [],
      date: now(),
      ...extra,
    };
    originals.set(m, { text: m.text, reply_markup: m.reply_markup, parse_mode: m.parse_mode, entities: m.entities });
    const list = messages.get(chatId) ?? [];
    list.push(m);
    messages.set(chatId, list);
    return m;
  }

  const bad = (description: string): ApiAnswer => ({
    ok: false,
    error_code: 400,
    description: `Bad Request: ${description}`,
  });
  const ok = (result: unknown): ApiAnswer => ({ ok: true, result });

  function chatIdOf(payload: any): number | undefined {
    const id = Number(payload.chat_id);
    return Number.isSafeInteger(id) && id !== 0 ? id : undefined;
  }

  async function getUpdates(payload: any, res: ServerResponse): Promise<ApiAnswer | undefined> {
    if (webhookUrl !== "") return { ok: false, error_code: 409, description: WEBHOOK_ACTIVE };
    let offset = Number(payload.offset ?? 0) || 0;
    if (offset < 0) {
      // Like Telegram: a negative offset keeps only the last -offset updates and forgets the rest.
      const keep = queue.slice(offset);
      offset = keep[0]?.update_id ?? nextUpdateId;
    }
    if (offset > 0) {
      // Like Telegram: an offset confirms every update below it, for good.
      queue = queue.filter((u) => u.update_id >= offset);
      confirmed = Math.max(confirmed, offset);
      notify();
    }
    const limit = Math.max(1, Math.min(Number(payload.limit ?? 100) || 100, 100));
    // Only one getUpdates at a time: a newer one ends the held one, as Telegram does.
    held?.finish("conflict");
    const ready = pendingFrom(offset, limit);
    const timeoutS = Math.min(Math.max(Number(payload.timeout ?? 0) || 0, 0), maxPollSeconds);
    if (ready.length > 0 || timeoutS === 0) return ok(ready);
    const how = await new Promise<"wake" | "timeout" | "closed" | "conflict">((resolve) => {
      const me = {
        offset,
        limit,
        finish: (reason: "wake" | "timeout" | "closed" | "conflict") => {
          clearTimeout(timer);
          res.off("close", onClose);
          if (held === me) held = undefined;
          resolve(reason);
        },
      };
      const onClose = () => me.finish("closed");
      const timer = setTimeout(() => me.finish("timeout"), timeoutS * 1000);
      res.once("close", onClose);
      held = me;
    });
    if (how === "closed") return undefined;
    if (how === "conflict") return { ok: false, error_code: 409, description: CONFLICT };
    return ok(pendingFrom(offset, limit));
  }

  function sendSomething(method: string, payload: any): ApiAnswer {
    const chatId = chatIdOf(payload);
    if (chatId === undefined) return bad("chat not found");
    if (blocked.has(chatId))
      return { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" };
    const markupError = checkMarkup(payload.reply_markup);
    if (markupError !== undefined) return bad(markupError);
    const replyTo = payload.reply_parameters?.message_id;
    if (
      replyTo !== undefined &&
      payload.reply_parameters?.allow_sending_without_reply !== true &&
      !(Number(replyTo) >= 1 && Number(replyTo) <= (messageIds.get(chatId) ?? 0))
    )
      return bad("message to be replied not found");
    const isText = method === "sendMessage";
    if (isText && typeof payload.text !== "string") return bad("message text is empty");
    const rendered = render(
      isText ? payload.text : payload.caption,
      payload.parse_mode,
      isText ? payload.entities : payload.caption_entities,
    );
    if ("error" in rendered) return bad(rendered.error);
    if (isText && rendered.plain.trim() === "") return bad("message text is empty");
    if (isText && rendered.plain.length > 4096) return bad("message is too long");
    if (!isText && rendered.plain.length > 1024) return bad("message caption is too long");
    let document: SentMessage["document"];
    if (!isText) {
      const field = method.replace(/^send/, "").toLowerCase();
      const file = payload.__files?.[0] as { filename: string; content: string; bytes: Buffer } | undefined;
      // Telegram takes files of up to 50 MB from a bot.
      if (file !== undefined && file.bytes.length > 50 * 1024 * 1024)
        return { ok: false, error_code: 413, description: "Request Entity Too Large" };
      document = file ?? { filename: String(payload[field] ?? ""), content: "" };
    }
    const m = record(chatId, method, payload, rendered, document === undefined ? {} : { document });
    // An uploaded file is kept as Telegram keeps it: getFile and the file URL serve its bytes.
    const uploaded = payload.__files?.[0] as { bytes: Buffer } | undefined;
    if (uploaded !== undefined)
      files.set(`file-${m.chat_id}-${m.message_id}`, { content: uploaded.bytes, size: uploaded.bytes.length });
    return ok(botMessageObject(m));
  }

  function edit(method: string, payload: any): ApiAnswer {
    if (payload.inline_message_id !== undefined) return ok(true);
    const chatId = chatIdOf(payload);
    if (chatId === undefined) return bad("chat not found");
    const m = findMessage(chatId, Number(payload.message_id));
    if (m === undefined) return bad("message to edit not found");
    const markupError = checkMarkup(payload.reply_markup);
    if (markupError !== undefined) return bad(markupError);
    let next: Rendered = { raw: m.text, plain: m.plain_text, entities: m.entities };
    let parseMode = m.parse_mode;
    if (method === "editMessageText" || method === "editMessageCaption") {
      if (method === "editMessageText" && m.method !== "sendMessage")
        return bad("there is no text in the message to edit");
      if (method === "editMessageCaption" && m.method === "sendMessage")
        return bad("there is no caption in the message to edit");
      const isText = method === "editMessageText";
      const r = render(
        isText ? payload.text : payload.caption,
        payload.parse_mode,
        isText ? payload.entities : payload.caption_entities,
      );
      if ("error" in r) return bad(r.error);
      if (isText && r.plain.trim() === "") return bad("message text is empty");
      if (isText && r.plain.length > 4096) return bad("message is too long");
      next = r;
      parseMode = payload.parse_mode;
    }
    // Leaving reply_markup out of an edit removes the inline keyboard, as on Telegram.
    const markup = payload.reply_markup;
    const sameMarkup = JSON.stringify(keyboardOf(markup)) === JSON.stringify(keyboardOf(m.reply_markup));
    const sameContent =
      next.plain === m.plain_text && JSON.stringify(next.entities ?? []) === JSON.stringify(m.entities ?? []);
    if (sameContent && sameMarkup) return bad(NOT_MODIFIED);
    m.text = next.raw;
    m.plain_text = next.plain;
    if (next.entities === undefined) delete m.entities;
    else m.entities = next.entities;
    if (parseMode === undefined) delete m.parse_mode;
    else m.parse_mode = parseMode;
    if (markup === undefined) delete m.reply_markup;
    else m.reply_markup = markup;
    m.edits.push({ text: m.text, reply_markup: m.reply_markup });
    return ok(botMessageObject(m));
  }

  async function handle(method: string, payload: any, res: ServerResponse): Promise<ApiAnswer | undefined> {
    const failure = failures.get(method)?.shift();
    if (failure !== undefined) return { ok: false, ...failure };
    switch (method) {
      case "getMe":
        return ok(botUser);
      case "getUpdates":
        return getUpdates(payload, res);
      case "deleteWebhook":
        webhookUrl = "";
        if (payload.drop_pending_updates === true || payload.drop_pending_updates === "true") queue = [];
        return ok(true);
      case "setWebhook":
        webhookUrl = String(payload.url ?? "");
        webhookSecretToken = String(payload.secret_token ?? "");
        setImmediate(pump);
        if (payload.drop_pending_updates === true || payload.drop_pending_updates === "true") queue = [];
        return ok(true);
      case "getWebhookInfo":
        return ok({ url: webhookUrl, has_custom_certificate: false, pending_update_count: queue.length });
      case "setMyCommands":
        commands.set(commandsKey(payload), payload.commands ?? []);
        return ok(true);
      case "deleteMyCommands":
        commands.delete(commandsKey(payload));
        return ok(true);
      case "getMyCommands":
        return ok(commands.get(commandsKey(payload)) ?? []);
      case "getChat": {
        const chatId = chatIdOf(payload);
        if (chatId === undefined) return bad("chat not found");
        return ok({ ...chatFor(chatId), accent_color_id: 0, max_reaction_count: 11 });
      }
      case "getFile": {
        const file = files.get(String(payload.file_id));
        if (file === undefined) {
          return ok({
            file_id: payload.file_id,
            file_unique_id: String(payload.file_id),
            file_size: 9,
            file_path: `files/${payload.file_id}`,
          });
        }
        return ok({
          file_id: payload.file_id,
          file_unique_id: String(payload.file_id),
          file_size: file.size,
          file_path: `documents/${payload.file_id}`,
        });
      }
      case "sendChatAction": {
        const chatId = chatIdOf(payload);
        if (chatId !== undefined && blocked.has(chatId))
          return { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" };
        return ok(true);
      }
      case "sendMessage":
      case "sendDocument":
      case "sendPhoto":
      case "sendVideo":
      case "sendAnimation":
      case "sendAudio":
      case "sendVoice":
      case "sendSticker":
        return sendSomething(method, payload);
      case "editMessageText":
      case "editMessageCaption":
      case "editMessageReplyMarkup":
        return edit(method, payload);
      case "deleteMessage": {
        const m = findMessage(chatIdOf(payload) ?? 0, Number(payload.message_id));
        if (m === undefined) return bad("message to delete not found");
        m.deleted = true;
        return ok(true);
      }
      case "answerCallbackQuery": {
        const id = String(payload.callback_query_id);
        if (!openCallbacks.has(id)) return bad("query is too old and response timeout expired or query ID is invalid");
        if (typeof payload.text === "string" && payload.text.length > 200) return bad("MESSAGE_TOO_LONG");
        openCallbacks.delete(id);
        callbackAnswers.push({
          callback_query_id: id,
          ...(payload.text === undefined ? {} : { text: payload.text }),
          ...(payload.show_alert === undefined
            ? {}
            : { show_alert: payload.show_alert === true || payload.show_alert === "true" }),
          ...(payload.url === undefined ? {} : { url: payload.url }),
          at: Date.now(),
        });
        return ok(true);
      }
      default:
        return ok(true);
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse) {
    const reply = (status: number, body: unknown) => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const requestUrl = new URL(req.url ?? "/", "http://fake");
    const named = /^\/via\/([A-Za-z0-9_-]+)(\/.*)$/.exec(requestUrl.pathname);
    const via = named?.[1];
    const path = named?.[2] ?? requestUrl.pathname;
    const fileMatch = /^\/file\/bot([^/]+)\/(.+)$/.exec(path);
    if (fileMatch !== null) {
      if (decodeURIComponent(fileMatch[1]!) !== token)
        return reply(401, { ok: false, error_code: 401, description: "Unauthorized" });
      const uploaded = /^documents\/(.+)$/.exec(fileMatch[2]!);
      const content = uploaded === null ? "fake-file" : files.get(uploaded[1]!)?.content;
      if (content === undefined) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
      res.writeHead(200, { "content-type": "application/octet-stream" });
      return void res.end(content);
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(path);
    if (match === null) return reply(404, { ok: false, error_code: 404, description: "Not Found" });
    const callToken = decodeURIComponent(match[1]!);
    const method = canonicalMethod(match[2]!);
    let payload: any;
    try {
      payload = { ...Object.fromEntries(requestUrl.searchParams), ...(await readPayload(req)) };
      for (const key of JSON_FIELDS) if (typeof payload[key] === "string") payload[key] = safeJson(payload[key]);
    } catch {
      return reply(400, { ok: false, error_code: 400, description: "Bad Request: invalid request body" });
    }
    const call: ApiCall = { method, token: callToken, payload, at: Date.now(), ...(via === undefined ? {} : { via }) };
    calls.push(call);
    if (callToken !== token) {
      call.answer = { ok: false, error_code: 401, description: "Unauthorized" };
      notify();
      return reply(401, call.answer);
    }
    if (method !== "getUpdates") lastActivityAt = Date.now();
    let answer: ApiAnswer | undefined;
    try {
      answer = await handle(method, payload, res);
    } catch (err) {
      answer = { ok: false, error_code: 500, description: `Internal Server Error: fake Bot API: ${String(err)}` };
    }
    if (answer !== undefined) {
      call.answer = answer;
      if (method !== "getUpdates" || (answer.ok && (answer.result as unknown[]).length > 0))
        lastActivityAt = Date.now();
      if (method !== "getUpdates" && answerHooks.size > 0) {
        notify();
        for (const hook of [...answerHooks]) await hook(call);
      }
      if (!res.destroyed) reply(answer.ok ? 200 : answer.error_code, answer);
    }
    notify();
  }

  const api: FakeBotApi = {
    get url() {
      return url;
    },
    token,
    botUser,
    calls,
    callbackAnswers,
    async start() {
      if (server !== undefined) return;
      server = createServer((req, res) => void onRequest(req, res));
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(0, "127.0.0.1", () => resolve());
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async stop() {
      delivery = undefined;
      held?.finish("closed");
      const s = server;
      if (s === undefined) return;
      server = undefined;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeAllConnections();
      await closed;
    },
    sendText(user, text, chatId, threadId) {
      // threadId: a message in that topic of a forum supergroup.
      const topic = threadId === undefined ? {} : { is_topic_message: true, message_thread_id: threadId };
      return userMessage(user, { text, ...commandEntities(text), ...topic }, chatId);
    },
    replyText(user, text, to, chatId) {
      const target = findMessage(to.chat_id, to.message_id) ?? to;
      return userMessage(
        user,
        { text, ...commandEntities(text), reply_to_message: botMessageObject(target) },
        chatId ?? to.chat_id,
      );
    },
    editText(user, sent, text) {
      const original = (sent as any).message;
      if (original === undefined) throw new Error("editText: the update is not a message");
      const { entities: _old, ...unchanged } = original;
      return enqueue({
        edited_message: {
          ...unchanged,
          from: fromUser(user),
          text,
          ...commandEntities(text),
          edit_date: now(),
        },
      });
    },
    sendSticker(user, chatId) {
      const sticker = {
        file_id: "sticker-1",
        file_unique_id: "s1",
        type: "regular",
        width: 512,
        height: 512,
        is_animated: false,
        is_video: false,
        emoji: "👍",
      };
      return userMessage(user, { sticker }, chatId);
    },
    sendDocument(user, doc, chatId) {
      const fileId = `doc-${++fileSeq}`;
      const target =
        doc.replyTo === undefined
          ? undefined
          : (findMessage(doc.replyTo.chat_id, doc.replyTo.message_id) ?? doc.replyTo);
      files.set(fileId, { content: doc.content, size: doc.size ?? Buffer.byteLength(doc.content) });
      return userMessage(
        user,
        {
          document: {
            file_id: fileId,
            file_unique_id: fileId,
            file_name: doc.fileName,
            mime_type:
              doc.mimeType ?? (doc.fileName.endsWith(".json") ? "application/json" : "application/octet-stream"),
            file_size: doc.size ?? Buffer.byteLength(doc.content),
          },
          ...(target === undefined ? {} : { reply_to_message: botMessageObject(target) }),
        },
        chatId,
      );
    },
    sendPhoto(user, chatId, photo = {}) {
      const caption = photo.caption;
      // getFile and the file URL serve the largest size's bytes (a PNG of one pixel unless given).
      // (Each file id its own bytes: the pixel, then the id.)
      const bytes = photo.bytes ?? Buffer.concat([ONE_PIXEL_PNG, Buffer.from(photo.fileId ?? "photo-1")]);
      files.set(photo.fileId ?? "photo-1", { content: bytes, size: bytes.length });
      const target =
        photo.replyTo === undefined
          ? undefined
          : (findMessage(photo.replyTo.chat_id, photo.replyTo.message_id) ?? photo.replyTo);
      const entities = caption === undefined ? {} : commandEntities(caption);
      return userMessage(
        user,
        {
          photo: [
            {
              file_id: `${photo.fileId ?? "photo-1"}-small`,
              file_unique_id: `${photo.fileUniqueId ?? "p1"}-small`,
              width: 90,
              height: 90,
              file_size: 900,
            },
            {
              file_id: photo.fileId ?? "photo-1",
              file_unique_id: photo.fileUniqueId ?? "p1",
              width: 900,
              height: 900,
              file_size: 90_000,
            },
          ],
          ...(caption === undefined ? {} : { caption }),
          ...(entities.entities === undefined ? {} : { caption_entities: entities.entities }),
          ...(target === undefined ? {} : { reply_to_message: botMessageObject(target) }),
        },
        chatId,
      );
    },
    tapButton(user, message, callbackData) {
      const given = typeof message === "number" ? findMessage(user.id, message) : message;
      const chatId = given?.chat_id ?? user.id;
      // The user taps the message as it is now; a forged tap on an unknown message carries none.
      const current = given === undefined ? undefined : (findMessage(chatId, given.message_id) ?? given);
      return enqueue({
        callback_query: {
          id: `cb-${++callbackSeq}`,
          from: fromUser(user),
          chat_instance: `ci-${chatId}`,
          ...(current === undefined ? {} : { message: botMessageObject(current) }),
          data: callbackData,
        },
      });
    },
    redeliver(update) {
      const { update_id: _ignored, ...content } = structuredClone(update) as any;
      return enqueue(content);
    },
    enqueueRaw(update) {
      return enqueue(update);
    },
    batch(fn) {
      // A held getUpdates answers in a microtask, after `fn` has enqueued everything.
      fn();
    },
    blockChat(chatId) {
      blocked.add(chatId);
    },
    unblockChat(chatId) {
      blocked.delete(chatId);
    },
    messagesTo(chatId) {
      return (messages.get(chatId) ?? []).filter((m) => m.deleted !== true);
    },
    lastMessageTo(chatId) {
      return api.messagesTo(chatId).at(-1);
    },
    waitForMessage(chatId, predicate, timeoutMs = 15_000) {
      let found: SentMessage | undefined;
      const search = () => {
        found = api.messagesTo(chatId).find(predicate);
        if (found !== undefined) return true;
        for (const m of messages.get(chatId) ?? []) {
          const original = originals.get(m);
          const versions = [...(original === undefined ? [] : [original]), ...m.edits];
          for (const v of versions) {
            const snapshot: SentMessage = { ...m, text: v.text ?? m.text, reply_markup: v.reply_markup };
            if (v.reply_markup === undefined) delete snapshot.reply_markup;
            if (v.text !== undefined && v.text !== m.text) snapshot.plain_text = plainOf(v.text, m.parse_mode);
            if (predicate(snapshot)) {
              found = snapshot;
              return true;
            }
          }
        }
        return false;
      };
      return api
        .waitFor(search, timeoutMs)
        .then(() => found!)
        .catch(() => {
          throw new Error(
            `no matching bot message in chat ${chatId} within ${timeoutMs} ms; ${describeChat(api.messagesTo(chatId))}`,
          );
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
      return api.waitFor(
        () => queue.length === 0 && held !== undefined && Date.now() - lastActivityAt >= quietMs,
        timeoutMs,
      );
    },
    buttonData(message, label) {
      const buttons: any[] = (message.reply_markup?.inline_keyboard ?? []).flat();
      const hit = buttons.find(
        (b) => (typeof label === "string" ? b.text === label : label.test(b.text)) && b.callback_data !== undefined,
      );
      if (hit === undefined) {
        throw new Error(
          `no button ${String(label)} on message #${message.message_id}; buttons: ${JSON.stringify(buttons.map((b) => b.text))}`,
        );
      }
      return hit.callback_data as string;
    },
    allOutgoingText() {
      return (
        JSON.stringify(calls.filter((c) => c.method !== "getUpdates").map((c) => c.payload)) +
        JSON.stringify(callbackAnswers)
      );
    },
    confirmedOffset: () => confirmed,
    pendingUpdates: () => queue.length,
    isPolling: () => held !== undefined,
    webhookPosts,
    deliverWebhooks(opts = {}) {
      delivery = {
        ...(opts.via === undefined ? {} : { via: opts.via }),
        retryMs: opts.retryMs ?? 200,
        maxConnections: opts.maxConnections ?? 40,
        ...(opts.again === undefined ? {} : { again: opts.again }),
      };
      pump();
    },
    async stopDelivering() {
      delivery = undefined;
      while (inFlightPosts.size > 0) await Promise.allSettled([...inFlightPosts]);
    },
    webhookSecret: () => webhookSecretToken,
    lastUpdateId: () => nextUpdateId - 1,
    beforeAnswer(fn) {
      answerHooks.add(fn);
      return () => void answerHooks.delete(fn);
    },
    failNext(method, error) {
      const name = canonicalMethod(method);
      const list = failures.get(name) ?? [];
      list.push(error);
      failures.set(name, list);
    },
  };
  return api;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

async function readPayload(req: IncomingMessage): Promise<Record<string, any>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  if (raw.length === 0) return {};
  const type = String(req.headers["content-type"] ?? "");
  if (type.includes("multipart/form-data")) return parseMultipart(raw, type);
  if (type.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
  // grammY sends JSON; so does everything else worth supporting.
  return JSON.parse(raw.toString("utf8"));
}

/**
 * A crude multipart/form-data reader. grammY writes headers such as `content-disposition:form-data;
 * name="x";filename=r.csv` (no spaces, unquoted filename), which undici's FormData parser refuses.
 */
function parseMultipart(raw: Buffer, contentType: string): Record<string, any> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (boundary === null) throw new Error("multipart without boundary");
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  // latin1 maps bytes to chars one to one, so binary parts survive the split.
  const body = raw.toString("latin1");
  const payload: Record<string, any> = {};
  const files: Array<{ field: string; filename: string; content: string; bytes: Buffer }> = [];
  for (const part of body.split(delimiter).slice(1)) {
    if (part.startsWith("--")) break;
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd < 0) continue;
    const headers = part.slice(0, headerEnd);
    const bytes = Buffer.from(part.slice(headerEnd + 4).replace(/\r\n$/, ""), "latin1");
    const content = bytes.toString("utf8");
    const disposition = /content-disposition\s*:([^\r\n]*)/i.exec(headers)?.[1] ?? "";
    const param = (key: string) => {
      const m = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, "i").exec(disposition);
      return m === null ? undefined : (m[1] ?? m[2] ?? "");
    };
    const name = param("name");
    if (name === undefined) continue;
    const filename = param("filename");
    if (filename === undefined) payload[name] = content;
    else files.push({ field: name, filename, content, bytes });
  }
  if (files.length > 0) payload.__files = files;
  return payload;
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const METHOD_NAMES = [
  "getMe",
  "getUpdates",
  "deleteWebhook",
  "setWebhook",
  "getWebhookInfo",
  "setMyCommands",
  "deleteMyCommands",
  "getMyCommands",
  "getChat",
  "getFile",
  "sendChatAction",
  "sendMessage",
  "sendDocument",
  "sendPhoto",
  "sendVideo",
  "sendAnimation",
  "sendAudio",
  "sendVoice",
  "sendSticker",
  "editMessageText",
  "editMessageCaption",
  "editMessageReplyMarkup",
  "deleteMessage",
  "answerCallbackQuery",
];
const METHOD_BY_LOWER = new Map(METHOD_NAMES.map((m) => [m.toLowerCase(), m]));

/** Telegram's method names are case-insensitive. */
function canonicalMethod(name: string): string {
  return METHOD_BY_LOWER.get(name.toLowerCase()) ?? name;
}

function commandsKey(payload: any): string {
  return JSON.stringify([payload.scope ?? { type: "default" }, payload.language_code ?? ""]);
}

// ---------------------------------------------------------------------------------------------
// Message content: what Telegram would accept and show

interface Rendered {
  raw: string;
  plain: string;
  entities?: any[];
}

function render(text: unknown, parseMode: unknown, entities: unknown): Rendered | { error: string } {
  const raw = typeof text === "string" ? text : "";
  if (typeof parseMode === "string" && parseMode.toUpperCase() === "HTML") {
    const parsed = parseHtml(raw);
    if ("error" in parsed) return { error: `can't parse entities: ${parsed.error}` };
    return { raw, plain: parsed.text, ...(parsed.entities.length > 0 ? { entities: parsed.entities } : {}) };
  }
  // Markdown modes are passed through unparsed.
  return { raw, plain: raw, ...(Array.isArray(entities) && entities.length > 0 ? { entities } : {}) };
}

function plainOf(text: string, parseMode: string | undefined): string {
  const r = render(text, parseMode, undefined);
  return "error" in r ? text : r.plain;
}

const HTML_TAGS: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  a: "text_link",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  "tg-emoji": "custom_emoji",
};
const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Telegram's HTML parse mode, closely enough to reject what Telegram rejects with its messages. */
function parseHtml(src: string): { text: string; entities: any[] } | { error: string } {
  const byteAt = (i: number) => Buffer.byteLength(src.slice(0, i), "utf8");
  let out = "";
  const entities: any[] = [];
  const open: Array<{ tag: string; start: number; attrs: Record<string, string> }> = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "&") {
      const m = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,4});/.exec(src.slice(i, i + 12));
      const name = m?.[1];
      const decoded =
        name === undefined
          ? undefined
          : name.startsWith("#x")
            ? String.fromCodePoint(parseInt(name.slice(2), 16))
            : name.startsWith("#")
              ? String.fromCodePoint(Number(name.slice(1)))
              : NAMED_ENTITIES[name.toLowerCase()];
      if (m !== null && decoded !== undefined) {
        out += decoded;
        i += m[0].length;
      } else {
        out += "&"; // Telegram keeps an ampersand that starts no known entity.
        i += 1;
      }
      continue;
    }
    if (ch !== "<") {
      out += ch;
      i += 1;
      continue;
    }
    const begin = i;
    if (src[i + 1] === "/") {
      const end = src.indexOf(">", i);
      if (end < 0) return { error: `Unclosed end tag at byte offset ${byteAt(begin)}` };
      const name = src
        .slice(i + 2, end)
        .trim()
        .toLowerCase();
      const top = open.pop();
      if (top === undefined) return { error: `Unexpected end tag at byte offset ${byteAt(begin)}` };
      if (top.tag !== name)
        return {
          error: `Unmatched end tag at byte offset ${byteAt(begin)}, expected "</${top.tag}>", found "</${name}>"`,
        };
      if (out.length > top.start) {
        const entity: any = { type: HTML_TAGS[top.tag], offset: top.start, length: out.length - top.start };
        if (top.tag === "a") entity.url = top.attrs.href ?? "";
        if (top.tag === "pre" && top.attrs.language !== undefined) entity.language = top.attrs.language;
        if (top.tag === "tg-emoji") entity.custom_emoji_id = top.attrs["emoji-id"] ?? "";
        if (top.tag === "blockquote" && "expandable" in top.attrs) entity.type = "expandable_blockquote";
        entities.push(entity);
      }
      i = end + 1;
      continue;
    }
    const name = (/^[A-Za-z0-9-]*/.exec(src.slice(i + 1))?.[0] ?? "").toLowerCase();
    if (HTML_TAGS[name] === undefined)
      return { error: `Unsupported start tag "${name}" at byte offset ${byteAt(begin)}` };
    // Attributes: name="value", name='value', name=value or a bare name; '>' inside quotes is text.
    let j = i + 1 + name.length;
    const attrs: Record<string, string> = {};
    for (;;) {
      while (j < src.length && /\s/.test(src[j]!)) j += 1;
      if (j >= src.length) return { error: `Unclosed start tag at byte offset ${byteAt(begin)}` };
      if (src[j] === ">") break;
      const attr = /^([A-Za-z0-9_-]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>"']+))?/.exec(src.slice(j));
      if (attr === null)
        return {
          error: `Expected equal sign in declaration of an attribute of the tag "${name}" at byte offset ${byteAt(begin)}`,
        };
      const value = attr[2] ?? "";
      attrs[attr[1]!.toLowerCase()] = value.startsWith('"') || value.startsWith("'") ? value.slice(1, -1) : value;
      j += attr[0].length;
    }
    if (name === "span" && attrs.class !== "tg-spoiler")
      return { error: `Tag "span" must have class "tg-spoiler" at byte offset ${byteAt(begin)}` };
    if (name === "code" && open.at(-1)?.tag === "pre" && attrs.class?.startsWith("language-"))
      open.at(-1)!.attrs.language = attrs.class.slice(9);
    open.push({ tag: name, start: out.length, attrs });
    i = j + 1;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) return { error: `Can't find end tag corresponding to start tag "${unclosed.tag}"` };
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text: out, entities };
}

/** Telegram refuses keyboards it could not show; these are the refusals bots meet. */
function checkMarkup(markup: any): string | undefined {
  const rows = markup?.inline_keyboard;
  if (markup === undefined || rows === undefined) return undefined;
  if (!Array.isArray(rows) || rows.some((r: unknown) => !Array.isArray(r)))
    return 'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays';
  for (const button of rows.flat()) {
    if (typeof button?.text !== "string") return "can't parse inline keyboard button: Text must be a String";
    const actions = [
      "callback_data",
      "url",
      "switch_inline_query",
      "switch_inline_query_current_chat",
      "login_url",
      "web_app",
      "pay",
      "callback_game",
      "copy_text",
      "switch_inline_query_chosen_chat",
    ];
    if (!actions.some((a) => button[a] !== undefined))
      return "can't parse inline keyboard button: InlineKeyboardButton must have exactly one optional field";
    if (button.callback_data !== undefined) {
      const bytes = Buffer.byteLength(String(button.callback_data), "utf8");
      if (bytes < 1 || bytes > 64) return "BUTTON_DATA_INVALID";
    }
  }
  return undefined;
}

function keyboardOf(markup: any): unknown {
  return markup?.inline_keyboard ?? [];
}

function describeChat(list: SentMessage[]): string {
  if (list.length === 0) return "the bot sent nothing to this chat";
  const lines = list.slice(-5).map((m) => {
    const buttons = ((m.reply_markup?.inline_keyboard ?? []) as any[]).flat().map((b: any) => b.text);
    const edited = m.edits.length > 0 ? ` (edited ${m.edits.length}×)` : "";
    return `  #${m.message_id}${edited}: ${JSON.stringify(m.text.slice(0, 300))}${buttons.length > 0 ? ` buttons ${JSON.stringify(buttons)}` : ""}`;
  });
  return `last messages:\n${lines.join("\n")}`;
}
