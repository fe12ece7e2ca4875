import type { FacadeDeps } from "../../facade";
import {
  CreatePartnerSourceDocument,
  type PartnerEventInput,
  type PartnerSourceFieldsFragment,
  PartnerSourcesDocument,
  PostPartnerEventsDocument,
  RemovePartnerSourceDocument,
  RotatePartnerSourceSecretDocument,
} from "../../generated/operations";
import type { V1Handlers } from "../handlers";
import { PARTNER_INBOUND_PATH } from "../partner-inbound";
import { partnerEventResults } from "../render/partner-events";
import { sendV1Error, sendV1List } from "../respond";

type Row = Record<string, unknown>;
const asRow = (v: unknown): Row =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Row) : {};
/** A text field as the core's input takes it; a number or true is read as its text, as a form would. */
const text = (v: unknown) =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : null;

/**
 * One event in the v1 spelling (that of the signed webhook too) as the core's input. A coordinate that
 * is not a number cannot be carried by the input's Float, so the event is answered `invalid` here, in
 * the core's own words, rather than refusing the whole batch.
 */
function toInput(raw: unknown): { input: PartnerEventInput } | { refused: string } {
  const e = asRow(raw);
  const location = asRow(e.location);
  for (const field of ["latitude", "longitude"] as const) {
    const value = location[field];
    if (value !== undefined && value !== null && typeof value !== "number") {
      return { refused: `${field} must be a number.` };
    }
  }
  return {
    input: {
      eventId: text(e.event_id) ?? "",
      eventType: text(e.event_type) ?? "",
      eventCode: text(e.event_code),
      eventClassifierCode: text(e.event_classifier_code),
      eventDateTime: text(e.event_date_time) ?? "",
      shipment: text(e.shipment_id ?? e.reference) ?? "",
      equipmentReference: text(e.equipment_reference),
      emptyIndicatorCode: text(e.empty_indicator_code),
      modeOfTransport: text(e.mode_of_transport),
      facilityTypeCode: text(e.facility_type_code),
      locationName: text(location.name),
      unLocationCode: text(location.un_location_code),
      latitude: (location.latitude as number | null | undefined) ?? null,
      longitude: (location.longitude as number | null | undefined) ?? null,
    },
  };
}

/** /partner-sources (issue 41): sources, their secrets and their events, as GraphQL has them. */
export function mountPartnerRoutes(api: V1Handlers, deps: FacadeDeps): void {
  const render = (s: PartnerSourceFieldsFragment) => ({
    id: s.id,
    name: s.name,
    created_at: s.createdAt,
    last_event_at: s.lastEventAt,
    inbound_url: `${deps.baseUrl}${PARTNER_INBOUND_PATH.replace(":sourceId", encodeURIComponent(s.id))}`,
  });
  const notFound = "Your organisation has no partner source with this id.";

  api.on("listPartnerSources", async (req, res) => {
    const result = await deps.run(req, PartnerSourcesDocument, {});
    if (!result.ok) return sendV1Error(res, result.outcome, { message: result.message });
    sendV1List(res, (result.data.partnerSources ?? []).map(render));
  });

  api.on("createPartnerSource", async (req, res, { body }) => {
    const result = await deps.run(req, CreatePartnerSourceDocument, { name: body.name });
    if (!result.ok) {
      return sendV1Error(res, result.outcome, {
        message: result.message,
        ...(result.outcome === "bad_request" ? { data: { param: "name" } } : {}),
      });
    }
    const created = result.data.createPartnerSource!;
    res.status(201).json({
      success: true,
      data: { ...render(created.source), signing_secret: created.signingSecret },
    });
  });

  api.on("rotatePartnerSourceSecret", async (req, res, { params }) => {
    const result = await deps.run(req, RotatePartnerSourceSecretDocument, { id: params.id });
    if (!result.ok) {
      return sendV1Error(res, result.outcome, {
        message: result.outcome === "not_found" ? notFound : result.message,
      });
    }
    const rotated = result.data.rotatePartnerSourceSecret!;
    res.json({ success: true, data: { ...render(rotated.source), signing_secret: rotated.signingSecret } });
  });

  api.on("removePartnerSource", async (req, res, { params }) => {
    const result = await deps.run(req, RemovePartnerSourceDocument, { id: params.id });
    if (!result.ok) {
      return sendV1Error(res, result.outcome, {
        message: result.outcome === "not_found" ? notFound : result.message,
      });
    }
    res.json({ success: true, removed: true, id: result.data.removePartnerSource!.id });
  });

  api.on("postPartnerEvents", async (req, res, { params, body }) => {
    const converted = body.events.map(toInput);
    // The core sees the events it can read, and answers them by their index in what it saw.
    const forwarded = converted.flatMap((c, index) => ("input" in c ? [{ index, input: c.input }] : []));
    const answered = new Map<number, ReturnType<typeof partnerEventResults>[number]>();
    if (forwarded.length === 0) {
      // Nothing for the core to take: the source must still be this organisation's.
      const sources = await deps.run(req, PartnerSourcesDocument, {});
      if (!sources.ok) return sendV1Error(res, sources.outcome, { message: sources.message });
      if (!sources.data.partnerSources?.some((s) => s.id === params.id)) {
        return sendV1Error(res, "not_found", { message: notFound });
      }
    } else {
      const result = await deps.run(req, PostPartnerEventsDocument, {
        sourceId: params.id,
        events: forwarded.map((f) => f.input),
      });
      if (!result.ok) {
        return sendV1Error(res, result.outcome, {
          message: result.outcome === "not_found" ? notFound : result.message,
        });
      }
      for (const r of partnerEventResults(result.data.postPartnerEvents!.results)) {
        const index = forwarded[r.index]!.index;
        // The sender's id as sent: an event without one says null, not the empty text the core was given.
        answered.set(index, { ...r, index, event_id: text(asRow(body.events[index]).event_id) });
      }
    }
    const results = converted.map((c, index) =>
      "refused" in c
        ? {
            index,
            event_id: text(asRow(body.events[index]).event_id),
            outcome: "invalid",
            shipment_id: null,
            message: c.refused,
          }
        : answered.get(index)!,
    );
    res.json({ success: true, data: { results } });
  });
}
