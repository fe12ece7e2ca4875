import pino, { type Logger } from "pino";

/**
 * JSON logs. Keys must never reach a log line: authorization headers are redacted here, and the
 * `api_key` query parameter is cut out of URLs by `redactUrl` before a URL is logged.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "quayside" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "req.headers.authorization",
          'req.headers["x-api-key"]',
          "req.headers.cookie",
          "headers.authorization",
          'headers["x-api-key"]',
        ],
        censor: "[redacted]",
      },
    },
    destination,
  );
}

export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, "$1[redacted]");
}

export type { Logger };
