import { timingSafeEqual } from "node:crypto";
import { chmodSync, unlinkSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { DataFolderLock, OperatorAddress } from "../db/data-folder-lock";
import { AccountError } from "../domain/accounts/accounts.service";
import { createBoundedServer, type SocketDeadlines } from "../http/connections";
import { OUTCOMES, type OutcomeCode } from "../http/outcomes";
import type { Logger } from "../observability/logger";
import { type CommandResult, type OperatorCommand, operatorCommandSchema } from "./commands";

/** The only route: the CLI posts one command and prints what comes back. */
export const OPERATOR_COMMAND_PATH = "/operator/v1/commands";
export const OPERATOR_SOCKET_FILE = "operator.sock";
/** A command is a few short strings. */
const MAX_BODY_BYTES = 16 * 1024;
/**
 * Unix socket paths are limited to 108 bytes on Linux and 104 on macOS; a deeper data folder (and
 * Windows) gets a loopback port instead.
 */
const MAX_SOCKET_PATH = 100;

export interface OperatorEndpoint {
  address: OperatorAddress;
  close(): Promise<void>;
}

/**
 * The running server's door for operator commands while it holds the PGlite folder. It is never
 * reachable from another machine: a Unix socket in the data folder (0600) or 127.0.0.1, and every
 * request needs the token from the 0600 lock file, checked before the body is read. It is not part
 * of the public app, so it is in no OpenAPI document and shares none of its middleware.
 */
export async function startOperatorEndpoint(input: {
  lock: DataFolderLock;
  run: (command: OperatorCommand) => Promise<CommandResult>;
  logger: Logger;
  /** The service's deadlines; this door keeps its shorter ones where the service's are longer. */
  http: SocketDeadlines;
}): Promise<OperatorEndpoint> {
  const { lock, run, logger, http } = input;
  const expected = Buffer.from(`Bearer ${lock.token}`);
  // Commands are short; a client that dawdles is not the CLI.
  const deadlines: SocketDeadlines = {
    headersTimeoutMs: Math.min(5_000, http.headersTimeoutMs),
    requestTimeoutMs: Math.min(10_000, http.requestTimeoutMs),
    keepAliveTimeoutMs: Math.min(1_000, http.keepAliveTimeoutMs),
    socketIdleTimeoutMs: http.socketIdleTimeoutMs,
  };
  const server = createBoundedServer(deadlines, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, "Operator command failed");
      refuse(res, "unexpected");
    });
  });
  server.maxConnections = 16;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const presented = Buffer.from(req.headers.authorization ?? "");
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return refuse(res, req.headers.authorization ? "invalid_key" : "missing_key");
    }
    if ((req.url ?? "").split("?")[0] !== OPERATOR_COMMAND_PATH) return refuse(res, "route_not_found");
    if (req.method !== "POST") return refuse(res, "method_not_allowed");
    const body = await readBody(req);
    if (body === null) return refuse(res, "body_too_large");
    const json = safeJson(body);
    if (json === undefined) return refuse(res, "malformed_json");
    const parsed = operatorCommandSchema.safeParse(json);
    if (!parsed.success) return refuse(res, "bad_request", parsed.error.issues[0]?.message);
    try {
      const result = await run(parsed.data);
      logger.info({ command: parsed.data.command }, "Operator command run");
      send(res, 200, result);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      refuse(res, error.code === "not_found" ? "not_found" : "bad_request", error.message, error.code);
    }
  }

  const socketPath = path.join(lock.dataDir, OPERATOR_SOCKET_FILE);
  let address: OperatorAddress;
  if (process.platform !== "win32" && Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH) {
    // We hold the folder's lock, so a socket file there is a dead server's leftover.
    removeIfPresent(socketPath);
    await listen(server, { path: socketPath });
    chmodSync(socketPath, 0o600);
    address = { socketPath };
  } else {
    await listen(server, { host: "127.0.0.1", port: 0 });
    address = { host: "127.0.0.1", port: (server.address() as AddressInfo).port };
  }
  lock.advertise(address);

  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        if ("socketPath" in address) removeIfPresent(address.socketPath);
      }),
  };
}

/** The v1 error shape and the status from the outcome table; `accountError` lets the CLI exit with 2. */
function refuse(res: ServerResponse, outcome: OutcomeCode, message?: string, accountError?: string): void {
  const wire = OUTCOMES[outcome];
  send(res, wire.v1.status, {
    error: wire.v1.error,
    message: message ?? wire.sentence,
    ...(accountError ? { accountError } : {}),
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function listen(server: Server, options: { path: string } | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Not there.
  }
}
