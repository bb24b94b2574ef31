import { describe, expect, it } from "vitest";
import { adminChatTopic, chatPolicy, isAdminChat, topicOf } from "../../src/bot/chats.js";

const chat = (id: number, type: "private" | "group" | "supergroup") => ({
  chat: type === "private" ? { id, type, first_name: "A" } : { id, type, title: "G" },
});

describe("which chat an update comes from", () => {
  it("when ADMIN_CHAT_ID is set, then only its chat is the admin chat, whatever the topic, and shop money shows there and in private chats", () => {
    const policy = chatPolicy({ chatId: -100123, threadId: 7 });
    expect(policy.isAdminChat(chat(-100123, "supergroup"))).toBe(true);
    expect(policy.isAdminChat(chat(-100999, "supergroup"))).toBe(false);
    expect(policy.isAdminChat(chat(1001, "private"))).toBe(false);
    expect(policy.isAdminChat({ chat: undefined })).toBe(false);
    expect(policy.isPrivate(chat(1001, "private"))).toBe(true);
    expect(policy.isPrivate(chat(-100123, "supergroup"))).toBe(false);
    expect(policy.mayShowShopMoney(chat(1001, "private"))).toBe(true);
    expect(policy.mayShowShopMoney(chat(-100123, "supergroup"))).toBe(true);
    expect(policy.mayShowShopMoney(chat(-4555, "group"))).toBe(false);
    expect(policy.mayShowShopMoney({ chat: undefined })).toBe(false);
  });

  it("when ADMIN_CHAT_ID is unset, then no chat is the admin chat and shop money shows in private chats only", () => {
    const policy = chatPolicy(undefined);
    expect(isAdminChat(chat(-100123, "supergroup"), undefined)).toBe(false);
    expect(policy.mayShowShopMoney(chat(-100123, "supergroup"))).toBe(false);
    expect(policy.mayShowShopMoney(chat(1001, "private"))).toBe(true);
  });

  it("when a message is in a forum topic, then sends keep its message_thread_id; elsewhere they add none", () => {
    expect(adminChatTopic({ chatId: -100123, threadId: 7 })).toEqual({ message_thread_id: 7 });
    expect(adminChatTopic({ chatId: -100123 })).toEqual({});
    const msg = (extra: object) => ({
      msg: { message_id: 1, date: 0, chat: chat(-100123, "supergroup").chat, ...extra },
    });
    expect(topicOf(msg({ is_topic_message: true, message_thread_id: 7 }) as never)).toEqual({ message_thread_id: 7 });
    // A reply in an ordinary supergroup carries a thread id too, but is not in a topic.
    expect(topicOf(msg({ message_thread_id: 42 }) as never)).toEqual({});
    expect(topicOf({ msg: undefined })).toEqual({});
  });
});
