import type { Api } from "grammy";

/** A file larger than the caller allows: refused before (Telegram's size) or while downloading. */
export class TooLargeError extends Error {
  override name = "TooLargeError";
  constructor(readonly size: number) {
    super(`file of ${size} bytes is too large`);
  }
}

/**
 * Downloads a file a user sent (a catalogue document, a proof of transfer): getFile, then the Bot
 * API's file URL, at most `maxBytes`. That URL holds the bot token, so it never reaches an error
 * message, a log or a page. undici is loaded with the first download, not at start.
 */
export function createByteDownloader(opts: { api: Api; apiRoot: string; token: string }) {
  return async (fileId: string, maxBytes: number): Promise<Buffer> => {
    const file = await opts.api.getFile(fileId);
    if (file.file_size !== undefined && file.file_size > maxBytes) throw new TooLargeError(file.file_size);
    if (file.file_path === undefined) throw new Error("Telegram gave no file path");
    try {
      const { request } = await import("undici");
      const answer = await request(`${opts.apiRoot}/file/bot${opts.token}/${file.file_path}`, {
        headersTimeout: 15_000,
        bodyTimeout: 15_000,
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump();
        throw new Error(`file download answered HTTP ${answer.statusCode}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          answer.body.destroy();
          throw new TooLargeError(size);
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    } catch (err) {
      if (err instanceof TooLargeError) throw err;
      throw new Error(String(err instanceof Error ? err.message : err).replaceAll(opts.token, "***"));
    }
  };
}

export type ByteDownloader = ReturnType<typeof createByteDownloader>;

/** A file a user sent, as UTF-8 text (a catalogue document), through the bot's one downloader. */
export const asText =
  (bytes: ByteDownloader) =>
  async (fileId: string, maxBytes: number): Promise<string> =>
    (await bytes(fileId, maxBytes)).toString("utf8");
