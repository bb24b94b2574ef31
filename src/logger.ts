import { pino, type DestinationStream, type Logger } from "pino";

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
  return destination === undefined ? pino(options) : pino(options, destination as DestinationStream);
}
