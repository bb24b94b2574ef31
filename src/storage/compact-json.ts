import { deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * JSON packed small for per-chat state that Redis keeps for every open dialogue: deflate with a
 * preset dictionary of what that state looks like (the conversations plugin's replay log with the
 * Telegram update that started it), then base64. A typical dialogue state of 600 bytes of JSON
 * becomes about 100 characters, for some 20 µs of CPU per write and 5 µs per read.
 *
 * The dictionary is part of the stored format: a value says which one packed it ("z1:"), and a
 * new dictionary must come with a new tag, never replace this one. Values that are plain JSON
 * (written before packing existed) are still read.
 */
const TAG = "z1:";
const DICTIONARY_V1 = Buffer.from(
  [
    '{"version":[0,2],"state":{"order":[{"args":"[{}]","interrupts":[2],"replay":{"send":[{"payload":',
    '"wait"},{"payload":"external"},{"payload":"wait"}],"receive":[{"send":0,"returnValue":{"update_i',
    'd":1,"message":{"message_id":1,"date":1795461884,"chat":{"id":1001,"type":"private","first_name"',
    ':"","last_name":"","username":""},"from":{"is_bot":false,"id":1001,"first_name":"","last_name":"',
    '","username":"","language_code":"id"},"text":"/order","entities":[{"type":"bot_command","offset"',
    ':0,"length":6}]}}},{"send":1,"returnValue":{"ok":true,"ret":2}}]}}]}}{"callback_query":{"id":"",',
    '"from":{"id":,"is_bot":false,"first_name":""},"message":{"message_id":,"from":{"id":,"is_bot":tr',
    'ue,"first_name":"","username":"_bot"},"chat":{"id":-100,"title":"","type":"supergroup"},"date":,',
    '"text":"","entities":[{"offset":0,"length":,"type":"bold"}],"reply_markup":{"inline_keyboard":[[',
    '{"text":"","callback_data":"p:"}]]}},"chat_instance":"","data":"p:"}"settle":[{"args":"[\\"TG\\",\\',
    '"success\\"]","returnValue":{"ok":true,"ret":undefined}},{"ok":true,"ret":{"refId":"TG"}}',
  ].join(""),
);

export function packJson(value: unknown): string {
  return TAG + deflateRawSync(JSON.stringify(value), { dictionary: DICTIONARY_V1 }).toString("base64");
}

export function unpackJson<T>(stored: string): T {
  if (!stored.startsWith(TAG)) return JSON.parse(stored) as T;
  return JSON.parse(
    inflateRawSync(Buffer.from(stored.slice(TAG.length), "base64"), { dictionary: DICTIONARY_V1 }).toString("utf8"),
  ) as T;
}
