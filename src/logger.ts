import { destination as toFd, pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * The one logger. Redaction is a second line of defence: the provider URL with `secret_key` is
 * never handed to it in the first place (see topup/provider-url.ts), and grammY keeps the token out of
 * its errors as long as `sensitiveLogs` stays off.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: {
      // Exact paths: wildcards make every log call about three times as costly.
      paths: [
        "secretKey",
        "secret_key",
        "signingSecret",
        "token",
        "botToken",
        "url",
        "err.url",
        "err.secretKey",
        "err.token",
      ],
      censor: "[redacted]",
    },
  };
  // Written out beside the work, never in its way: lines written while one is on its way go out
  // together with the next write (pino flushes what is left when the process exits).
  return pino(options, (destination as DestinationStream | undefined) ?? toFd({ dest: 1, sync: false }));
}
