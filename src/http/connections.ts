import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import type { AppConfig } from "../config";
import { type Logger, redactUrl } from "../observability/logger";
import { HTTP_STATUS_TEXT, OUTCOMES, type OutcomeCode } from "./outcomes";

type HttpLimits = AppConfig["http"];

/** The deadlines every listener holds its sockets to (`QUAYSIDE_*_TIMEOUT_MS`). */
export type SocketDeadlines = Pick<
  HttpLimits,
  "headersTimeoutMs" | "requestTimeoutMs" | "keepAliveTimeoutMs" | "socketIdleTimeoutMs"
>;

/**
 * Every HTTP listener the service opens is made here (the API, the operator endpoint, the embedded
 * carrier simulator), so a socket on any of them that stays silent is closed at the same documented
 * deadlines: headers, whole request, keep-alive, and `socketIdleTimeoutMs` of silence both ways.
 * A listener made with Node's defaults held a silent socket 60 to 90 s and a trickled body 300 s,
 * with no idle limit at all; one whose deadlines were set after construction checked them only every
 * 30 s.
 */
export function createBoundedServer(deadlines: SocketDeadlines, handler?: RequestListener): Server {
  const server = createServer(serverOptions(deadlines), handler);
  // Node destroys a socket whose idle timer fires unless a listener takes the timeout over; none does.
  server.timeout = deadlines.socketIdleTimeoutMs;
  return server;
}

/**
 * The options `createServer` must get at construction: Node checks the header and request deadlines
 * on a timer whose period cannot be changed later (30 s by default, which would let a 10 s deadline
 * hold a socket for 40 s). A fifth of the shorter deadline, at most a second, cuts within 20% of it.
 */
export function serverOptions(limits: SocketDeadlines): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(
      25,
      Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 5)),
    ),
  };
}

/** A request being answered, as the shutdown log names it when the grace cuts it. */
export interface RequestInFlight {
  method: string;
  /** Path and query, `api_key` redacted. */
  url: string;
  requestId: string | undefined;
  ageMs: number;
}

/** What shutdown needs from the guard: the sockets it may close at once, and what is still running. */
export interface ConnectionGuard {
  /**
   * Closes every socket with no request in progress, including one that was opened and never sent a
   * request (Node's `closeIdleConnections` leaves those open until the header deadline, which held
   * the process for the whole grace). Returns how many were closed.
   */
  closeIdle(): number;
  requestsInFlight(): RequestInFlight[];
}

/**
 * Holds the server to its connection budget without letting idle sockets lock keyed clients out.
 * Node's own `maxConnections` refuses the NEWEST socket at the cap, so whoever opened the cap's worth
 * of idle sockets first would shut everyone else out until the header deadline. Instead, at the cap
 * the socket that has been idle longest (no request in progress: never sent one, or between two on
 * keep-alive) is closed to make room; only when every socket is busy is the newcomer refused.
 * A client whose request is being answered is never cut for someone else's connection.
 */
export function guardConnections(server: Server, limits: HttpLimits, logger: Logger): ConnectionGuard {
  // Insertion order is idleness order: a socket goes to the end each time it becomes idle.
  const idle = new Set<Socket>();
  const open = new Set<Socket>();
  const busy = new Map<ServerResponse, { req: IncomingMessage; startedAt: number }>();
  let evicted = 0;

  server.on("connection", (socket: Socket) => {
    open.add(socket);
    idle.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      idle.delete(socket);
    });
    if (open.size <= limits.maxConnections) return;
    const idlest = idle.values().next().value as Socket | undefined;
    const victim = idlest && idlest !== socket ? idlest : socket;
    open.delete(victim);
    idle.delete(victim);
    victim.destroy();
    evicted += 1;
    // One line per burst, not per socket: a flood must not become a log flood.
    if (evicted === 1 || evicted % 1_000 === 0) {
      logger.warn(
        { maxConnections: limits.maxConnections, closedSoFar: evicted },
        victim === socket
          ? "Connection cap reached with every socket busy: refused a new connection"
          : "Connection cap reached: closed the longest-idle connection to make room",
      );
    }
  });

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    idle.delete(socket);
    busy.set(res, { req, startedAt: performance.now() });
    res.once("close", () => busy.delete(res));
    res.once("finish", () => {
      if (!socket.destroyed && open.has(socket)) idle.add(socket);
    });
  });

  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    answerClientError(error, socket, logger);
  });

  return {
    closeIdle() {
      const closing = [...idle];
      for (const socket of closing) {
        idle.delete(socket);
        // The last answer's bytes may still be queued in the socket: flush them, then close.
        socket.destroySoon();
      }
      return closing.length;
    },
    requestsInFlight() {
      const now = performance.now();
      return [...busy].map(([res, { req, startedAt }]) => {
        const requestId = res.getHeader("x-request-id");
        // Express rewrites `url` inside mounted routers; `originalUrl` is what the client sent.
        const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? "";
        return {
          method: req.method ?? "",
          url: redactUrl(url),
          requestId: typeof requestId === "string" ? requestId : undefined,
          ageMs: Math.round(now - startedAt),
        };
      });
    },
  };
}

/**
 * What Node's default `clientError` handler does (answer only when nothing of a response was written
 * on the socket yet, then close), but with a JSON body like every other refusal, `nosniff`, and a
 * log line at info: an unparsable request or a client too slow for the deadlines is the client's
 * problem, not the server's. Closed means closed: the answer is flushed and the socket destroyed.
 * Ending it only (a half-close: HTTP sockets allow half-open) left it open until the client closed
 * its side, and a client that never does (one that never sent a byte) kept it for the whole idle
 * timeout counted from the answer: 130 s, past the documented 120.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, logger: Logger): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  const code = error.code ?? "";
  if (code !== "ECONNRESET") logger.info({ code }, "Client error on an HTTP connection");
  if (code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const outcome: OutcomeCode =
    code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? "request_timeout"
      : code === "HPE_HEADER_OVERFLOW"
        ? "headers_too_large"
        : "malformed_http";
  const { v1, sentence } = OUTCOMES[outcome];
  const statusText = HTTP_STATUS_TEXT[v1.status] ?? "Bad Request";
  const body = JSON.stringify({
    success: false,
    statusCode: v1.status,
    statusMessage: statusText,
    message: sentence,
    data: { error: v1.error },
  });
  socket.write(
    `HTTP/1.1 ${v1.status} ${statusText}\r\n` +
      "Connection: close\r\n" +
      "Content-Type: application/json; charset=utf-8\r\n" +
      "X-Content-Type-Options: nosniff\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroySoon();
}

/**
 * An answer sent before the request's body was read (a refused key, a wrong verb) closes the
 * connection: otherwise Node reads and discards the rest of the body to reuse the socket, and a client
 * trickling a large body would keep it for the whole request deadline after it was already refused.
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
}
