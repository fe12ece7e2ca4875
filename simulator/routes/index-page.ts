/** `GET /`: the carriers, their URLs and example references, and the admin URLs. */

import type { IncomingMessage, ServerResponse } from "node:http";
import { CARRIERS, type Carrier } from "../../reference-data/carriers";
import type { SimulatorContext } from "../context";
import { API_VERSION, publicBase, send } from "../http";
import { awaitingReleaseBooking, awaitingReleaseBox } from "../world/awaiting-release";
import { carrierExamples, type ExampleDocument } from "../world/example-references";

export function indexRoutes(ctx: SimulatorContext) {
  const { auth } = ctx;

  function examplesOf(carrier: Carrier) {
    const { cancelled, noContainers, unreadable, unknownBox } = carrierExamples(carrier);
    const document = (example: ExampleDocument | undefined) =>
      example && { billOfLading: example.billOfLading, booking: example.booking };
    const awaitingBox = awaitingReleaseBox(carrier);
    return {
      cancelled: document(cancelled),
      noContainers: document(noContainers),
      unreadable: document(unreadable),
      unknownBox,
      awaitingRelease: awaitingBox && { box: awaitingBox, booking: awaitingReleaseBooking(carrier) },
    };
  }

  function index(req: IncomingMessage, res: ServerResponse): void {
    const base = publicBase(req);
    send(res, 200, {
      name: "Quayside carrier simulator",
      standard: `DCSA Track & Trace ${API_VERSION}`,
      carriers: CARRIERS.map((carrier) => ({
        scac: carrier.scac,
        name: carrier.name,
        eventsUrl: `${base}/${carrier.scac}/v2/events`,
        pointToPointUrl: `${base}/${carrier.scac}/v1/point-to-point-routes`,
        portSchedulesUrl: `${base}/${carrier.scac}/v1/port-schedules`,
        auth: auth.get(carrier.scac)?.kind ?? "none",
        examples: examplesOf(carrier),
      })),
      vesselPositionUrl: `${base}/vessels/position?imo={IMO}&mmsi={MMSI}`,
      vesselPositionByNameUrl: `${base}/vessels/position?name={NAME}`,
      portAreaUrl: `${base}/vessels/area?port={UNLOCODE}`,
      admin: {
        state: `${base}/_admin/state`,
        faults: `${base}/_admin/faults/{SCAC}`,
        habits: `${base}/_admin/habits/{SCAC}`,
        clock: `${base}/_admin/clock`,
      },
    });
  }

  return { index };
}
