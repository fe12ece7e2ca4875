import type { Principal } from "../domain/accounts/principal";
import type { Services } from "./services";

/**
 * The sandbox organisation's workspace, so every MCP workspace tool has something fixed to answer:
 * a packing list attached to SHP-1000, a question about SHP-1003 that the operator answered, and a
 * quote request the operator quoted. Written once when the world is built, before its snapshot, on
 * its frozen clock; a failure names the step, because a world without them would answer differently.
 */
export async function seedSandboxWorkspace(services: Services, principal: Principal): Promise<void> {
  const packingList = new TextEncoder().encode(
    "container,iso_code,packages,gross_kg\nSBXU1004493,45G1,1200,18400\n",
  );
  const uploaded = await services.workspaceDocuments.upload(principal, {
    bytes: packingList,
    fileName: "packing-list-SHP-1000.csv",
    documentType: "packing_list",
    name: "Packing list",
    shipments: ["SHP-1000"],
  });
  if (uploaded.kind !== "uploaded")
    throw new Error(`sandbox workspace: the packing list was refused (${uploaded.kind})`);

  const ticket = await services.tickets.open(principal, {
    subject: "When will SHP-1003 be available for pickup?",
    body: "Our trucker is booked for the day after arrival. Is the box likely to be released by then?",
    type: "QUESTION",
    priority: "NORMAL",
    shipmentReference: "SHP-1003",
  });
  if (ticket.kind !== "done") throw new Error(`sandbox workspace: the ticket was refused (${ticket.kind})`);
  const answered = await services.tickets.replyAsStaff(
    ticket.ticket.id,
    "The terminal has not answered for this box yet; we will update you as soon as it does.",
    "PENDING",
  );
  if (answered.kind !== "done")
    throw new Error(`sandbox workspace: the answer was refused (${answered.kind})`);

  const request = await services.quoteRequests.request(principal, {
    origin: "CNSHA",
    destination: "NLRTM",
    containerType: "40HC",
    quantity: 2,
    readyDate: "2026-09-15",
    commodity: "Furniture",
  });
  if (request.kind !== "created")
    throw new Error(`sandbox workspace: the quote request was refused (${request.kind})`);
  const quoted = await services.quoteRequests.quote(request.request.id, {
    total: 3450,
    currency: "USD",
    validUntil: new Date("2026-09-10T00:00:00.000Z"),
    carrierScac: "MAEU",
    transitDays: 32,
  });
  if (quoted.kind !== "done") throw new Error(`sandbox workspace: the quote was refused (${quoted.kind})`);
}
