/** Telegram's limit is 4096 characters; the rest is room for a heading. */
const MESSAGE_BUDGET = 3500;

/** Lines joined into messages under Telegram's limit, split only between blocks. */
export function splitMessages(blocks: readonly string[], budget = MESSAGE_BUDGET): string[] {
  const messages: string[] = [];
  let current = "";
  for (const block of blocks) {
    const pieces = block.length > budget ? block.split("\n") : [block];
    for (const piece of pieces) {
      const joined = current === "" ? piece : `${current}\n${piece}`;
      if (joined.length > budget && current !== "") {
        messages.push(current);
        current = piece.slice(0, budget);
      } else current = joined.slice(0, budget);
    }
  }
  if (current !== "") messages.push(current);
  return messages;
}

/**
 * As many lines as fit in one message with its head and foot, then "and N more" (`more(n)`):
 * a diff or a list of errors is one message, its buttons below it.
 */
export function fitLines(
  head: string,
  lines: readonly string[],
  foot: string,
  more: (count: number) => string,
  budget = MESSAGE_BUDGET,
): string {
  const shown: string[] = [];
  let size = head.length + foot.length + 80;
  for (const [i, line] of lines.entries()) {
    if (size + line.length + 1 > budget) {
      shown.push(more(lines.length - i));
      break;
    }
    shown.push(line);
    size += line.length + 1;
  }
  return [head, ...shown, ...(foot === "" ? [] : [foot])].join("\n");
}

/** Telegram's limit for a photo's or a document's caption, in characters as the reader sees them. */
export const CAPTION_LIMIT = 1024;

/** How many characters Telegram counts in `html` (parse_mode HTML): the text without its tags. */
export function visibleLength(html: string): number {
  return html.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi, "_").length;
}

/**
 * A text that goes with a picture (the shop's QRIS): the picture with the text as its caption when
 * it fits one, else the picture alone and the text in a message of its own just after it, so the
 * picture is never dropped. Resolves with the message that holds the text (its buttons, its id).
 */
export async function withPicture<M extends { message_id: number }>(
  photo: string | undefined,
  text: string,
  send: { photo(caption: string | undefined): Promise<M>; text(): Promise<M> },
): Promise<M> {
  if (photo === undefined) return send.text();
  if (visibleLength(text) <= CAPTION_LIMIT) return send.photo(text);
  await send.photo(undefined);
  return send.text();
}
