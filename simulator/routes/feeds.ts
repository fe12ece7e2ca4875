/** `/feeds/<publisher>.xml`: the world's news as RSS (simulator/feeds.ts). */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { SimulatorContext } from "../context";
import { FEED_PUBLISHERS, feedXml, isFeedPublisher } from "../feeds";
import { publicBase } from "../http";

export function feedRoutes(ctx: SimulatorContext) {
  const { clock, sendDcsaError } = ctx;

  function answerFeed(req: IncomingMessage, res: ServerResponse, file: string): void {
    const publisher = file.replace(/\.xml$/, "");
    if (!file.endsWith(".xml") || !isFeedPublisher(publisher)) {
      sendDcsaError(req, res, 404, {
        reason: "notFound",
        message: `No feed ${file}; feeds: ${FEED_PUBLISHERS.map((p) => `${p}.xml`).join(", ")}.`,
      });
      return;
    }
    const body = feedXml(publisher, clock.now().getTime(), publicBase(req));
    res.writeHead(200, { "content-type": "application/rss+xml; charset=utf-8" });
    res.end(body);
  }

  return { answerFeed };
}
