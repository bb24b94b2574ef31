/*
 * Saying where a text stops being JSON, for a person who fixes it in an editor: Node's JSON.parse
 * does not always say.
 */

/** Where syntaxErrorAt stopped reading. */
class JsonStop extends Error {
  constructor(readonly at: number) {
    super(`not JSON from ${at}`);
  }
}

/**
 * Where JSON text stops being JSON, by reading it the way JSON.parse does: for the errors whose
 * message does not say (`Unexpected token ']', "[1,]" is not valid JSON`). Undefined when the text
 * is JSON after all, or too deeply nested to read this way.
 */
function syntaxErrorAt(text: string): number | undefined {
  let i = 0;
  const stop = (): never => {
    throw new JsonStop(i);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const expect = (c: string) => (text[i] === c ? void i++ : stop());
  const string = () => {
    expect('"');
    for (;;) {
      const c = text[i];
      if (c === undefined || c < " ") stop();
      i++;
      if (c === '"') return;
      if (c === "\\") {
        if (text[i] === "u") {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? "")) stop();
            i++;
          }
        } else if ('"\\/bfnrt'.includes(text[i] ?? "x")) i++;
        else stop();
      }
    }
  };
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text[i] === ",") i++;
        else return expect(close);
      }
    }
    if (c === '"') return string();
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) return void (i += word.length);
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) stop();
    i = NUMBER.lastIndex;
  };
  try {
    value();
    space();
    return i < text.length ? i : undefined;
  } catch (err) {
    if (err instanceof JsonStop) return err.at;
    return undefined;
  }
}

/** `line 3, column 14` of an offset in text (both counted from 1, as editors do). */
function lineAndColumn(text: string, at: number): string {
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  return `line ${line}, column ${at - before.lastIndexOf("\n")}`;
}

/**
 * A file that is not JSON, as a person fixes it: where (the line and column) and what JSON.parse
 * said, without its offset and quote of the text. Node 20 says `… in JSON at position 41`, newer
 * ones add `(line 3 column 14)`, and some errors say neither (`Unexpected token`): then the text is
 * read again to find the place.
 */
export function notJson(text: string, err: unknown): { where: string; message: string } {
  const said = err instanceof Error ? err.message : String(err);
  const stated = / \(line (\d+) column (\d+)\)/.exec(said);
  const position = / at position (\d+)/.exec(said);
  const at =
    position !== null ? Number(position[1]) : /end of JSON input/.test(said) ? text.length : syntaxErrorAt(text);
  const where =
    stated !== null
      ? `line ${stated[1]}, column ${stated[2]}`
      : at === undefined
        ? ""
        : lineAndColumn(text, Math.min(at, text.length));
  const reason = said
    .replace(/ at position \d+.*$/s, "")
    .replace(/ in JSON$/, "")
    .replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, "")
    .trim();
  const why = reason === "" ? "" : ` (${reason.charAt(0).toLowerCase()}${reason.slice(1)})`;
  return { where, message: `not valid JSON${why}` };
}
