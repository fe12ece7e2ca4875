import { createGraphQLError, type Plugin } from "graphql-yoga";
import { OUTCOMES } from "../http/outcomes";

/**
 * The cap on a body Yoga reads itself (a multipart upload), answered 413 however the size shows.
 * Yoga's own `maxRequestBodySize` refuses a declared Content-Length over it with 413, but a body sent
 * with `Transfer-Encoding: chunked` trips the same cap while the multipart parser reads it, and the
 * parser re-wraps that as a 400 "invalid multipart data" (graphql-yoga 5). This plugin counts the
 * bytes on the parser's way and, when the cap was what stopped it, answers the 413 instead. Yoga's
 * own cap is switched off (`maxRequestBodySize: false`) so there is one cap with one answer.
 */
export function uploadCap(maxBytes: number): Plugin {
  const tooLarge = () => {
    const wire = OUTCOMES.body_too_large;
    return createGraphQLError(`The request body is larger than ${maxBytes} bytes.`, {
      extensions: { code: wire.graphql.code, reason: wire.v1.error, http: { status: wire.graphql.status } },
    });
  };
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get("content-length");
      if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge();
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (req) => {
        if (!req.body) return parse(req);
        let seen = 0;
        let over = false;
        // A native body needs the native TransformStream (Yoga's own limiter does the same).
        const Transform =
          req.body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
        const counted = req.body.pipeThrough(
          new Transform<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              seen += chunk.byteLength;
              if (seen > maxBytes) {
                over = true;
                controller.error(new Error("request body over the cap"));
                return;
              }
              controller.enqueue(chunk);
            },
          }),
        );
        const limited = new fetchAPI.Request(req.url, {
          method: req.method,
          headers: req.headers,
          signal: req.signal,
          body: counted,
          duplex: "half",
        } as RequestInit);
        try {
          return await parse(limited);
        } catch (error) {
          if (over) throw tooLarge();
          throw error;
        }
      });
    },
  };
}
