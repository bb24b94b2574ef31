import { request } from "undici";

/**
 * A POST to the bot's webhook as Telegram makes it: JSON, with the secret header when given. The
 * body is sent as it is (a test may send what is not an update); the answer's status and body.
 */
export async function postToWebhook(
  url: string,
  body: string,
  secret?: string,
): Promise<{ status: number; body: string }> {
  const res = await request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(secret === undefined ? {} : { "x-telegram-bot-api-secret-token": secret }),
    },
    body,
  });
  return { status: res.statusCode, body: await res.body.text() };
}
