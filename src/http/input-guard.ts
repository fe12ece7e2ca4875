import express, { type RequestHandler } from "express";
import { findUnstorable, unstorableText } from "../lib/storable-text";
import type { OutcomeCode } from "./outcomes";

/**
 * Wire input that no surface can store or answer sensibly is refused where it is parsed, once for
 * every surface, instead of surfacing as a database error deep inside an operation.
 */

/** A refusal of what the client sent; the app's error handler renders it in the surface's format. */
export class ClientInputError extends Error {
  constructor(
    readonly outcome: OutcomeCode,
    message: string,
  ) {
    super(message);
    this.name = "ClientInputError";
  }
}

/**
 * Where in a parsed value (query object or JSON body, keys included) a string cannot be stored, as a
 * path like `body.shipments[0].number`; undefined when there is none.
 */
export function findUnstorableText(value: unknown, root = "body"): string | undefined {
  return findUnstorable(value, root)?.path;
}

export const unstorableMessage = (where: string) =>
  `${where} holds a NUL character or an unpaired UTF-16 surrogate; send well-formed text without U+0000.`;

/**
 * The path must decode (a `%FF` or a cut `%E0%A4%A` is not UTF-8) and, like the query string, must
 * not carry a NUL. Runs before any router so that no route sees what it could not decode.
 */
export function guardUrl(): RequestHandler {
  return (req, _res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      return next(
        new ClientInputError(
          "bad_request",
          "The path holds malformed percent-encoding: every %XX sequence must spell UTF-8.",
        ),
      );
    }
    if (unstorableText(path)) return next(new ClientInputError("bad_request", unstorableMessage("The path")));
    const where = findUnstorableText(req.query, "query");
    if (where) {
      const parameter = where.replace(/^query\./, "").replace(/\[\d+\]$/, "");
      return next(new ClientInputError("bad_request", unstorableMessage(`The query parameter ${parameter}`)));
    }
    next();
  };
}

/**
 * `express.json` followed by the same check on the parsed body (`checkText: false` leaves the check
 * to a surface that answers it itself, as MCP does to echo the message's id).
 */
export function jsonBody(limit: string, options: { checkText?: boolean } = {}): RequestHandler {
  const parse = express.json({ limit, type: ["application/json", "application/*+json"] });
  if (options.checkText === false) return parse;
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const where = findUnstorableText(req.body);
      if (where) return next(new ClientInputError("bad_request", unstorableMessage(where)));
      next();
    });
  };
}

/**
 * A body-parser or router failure caused by what the client sent, as an outcome and a sentence;
 * undefined for anything else (a real failure, logged with its stack).
 */
export function clientErrorOf(
  error: unknown,
  bodyLimit: string,
): { outcome: OutcomeCode; message?: string } | undefined {
  if (error instanceof ClientInputError) return { outcome: error.outcome, message: error.message };
  if (typeof error !== "object" || error === null) return undefined;
  const { type, code, status } = error as { type?: unknown; code?: unknown; status?: unknown };
  if (type === "entity.parse.failed") return { outcome: "malformed_json" };
  if (type === "entity.too.large") {
    return { outcome: "body_too_large", message: `The request body is larger than ${bodyLimit}.` };
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return { outcome: "bad_request", message: "The request body's encoding is not supported." };
  }
  if (typeof code === "string" && code.startsWith("Z_")) {
    return {
      outcome: "malformed_json",
      message: "The request body could not be decompressed: it is not what its Content-Encoding says.",
    };
  }
  if (error instanceof URIError) {
    return { outcome: "bad_request", message: "The path holds malformed percent-encoding." };
  }
  // Anything else body-parser or the router raised with a 4xx (an aborted or truncated body).
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { outcome: "bad_request", message: "The request body could not be read completely." };
  }
  return undefined;
}
