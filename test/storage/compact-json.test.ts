import { describe, expect, it } from "vitest";
import { packJson, unpackJson } from "../../src/storage/compact-json.js";

describe("packed dialogue state", () => {
  const state = {
    version: [0, 2],
    state: {
      order: [
        {
          args: "[{}]",
          interrupts: [2],
          replay: {
            send: [{ payload: "wait" }, { payload: "external" }, { payload: "wait" }],
            receive: [
              {
                send: 0,
                returnValue: {
                  update_id: 7,
                  message: {
                    message_id: 3,
                    date: 1795461884,
                    chat: { id: 4242, type: "private", first_name: "Sari" },
                    from: { is_bot: false, id: 4242, first_name: "Sari", language_code: "id" },
                    text: "/order",
                    entities: [{ type: "bot_command", offset: 0, length: 6 }],
                  },
                },
              },
              { send: 1, returnValue: { ok: true, ret: 4 } },
            ],
          },
        },
      ],
    },
  };

  it("when a dialogue's state is packed, then it comes back equal and a third of the size or less", () => {
    const packed = packJson(state);
    expect(unpackJson(packed)).toEqual(state);
    expect(packed.length * 3).toBeLessThanOrEqual(JSON.stringify(state).length);
  });

  it("when state was stored before packing existed (plain JSON), then it is still read", () => {
    expect(unpackJson(JSON.stringify(state))).toEqual(state);
  });

  it("when a value packed by this version is read later, then it still unpacks: the dictionary never changes", () => {
    // Packed once (with the first version of this code) and kept: a change of the dictionary would
    // make it, and every open dialogue in Redis, unreadable.
    const stored = "z1:q1ZKBKcQ9ISHHNCmGFmnthYA";
    expect(unpackJson(stored)).toEqual({ a: 1, text: "/order", chat: { id: 5, type: "private" } });
  });
});
