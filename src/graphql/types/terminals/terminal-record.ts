import { boxTerminals } from "../../../domain/terminals/box-terminals";
import {
  HOLD_STATUSES,
  HOLD_TYPES,
  TERMINAL_EVENT_KINDS,
  type TerminalEvent,
  type TerminalFacts,
  type TerminalHold,
  type TerminalRecordItem,
  type TerminalRef,
} from "../../../domain/terminals/terminal-facts";
import { builder } from "../../builder";
import { LIST_SIZE } from "../../limits";
import { ShipmentRef } from "../shipments/shipment";
import { latestDocuments } from "../tracking/latest-documents";

const upperValues = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<
    Uppercase<T>,
    { value: T }
  >;

export const HoldTypeEnum = builder.enumType("TerminalHoldType", {
  description:
    "What a hold is for: customs, freight (the line's charges), terminal (fees such as TMF), USDA, other.",
  values: upperValues(HOLD_TYPES),
});

export const HoldStatusEnum = builder.enumType("TerminalHoldStatus", {
  description:
    "HOLD: the box may not leave. PENDING: the hold is being lifted (paid, inspected) but is not yet.",
  values: upperValues(HOLD_STATUSES),
});

export const TerminalEventKindEnum = builder.enumType("TerminalEventKind", {
  values: upperValues(TERMINAL_EVENT_KINDS),
});

export const TerminalRecordStateEnum = builder.enumType("TerminalRecordState", {
  description: "FOUND: the terminal's current facts and events. FINDING: still checking, no facts yet.",
  values: { FOUND: { value: "found" }, FINDING: { value: "finding" } } as const,
});

const TerminalRefObject = builder.objectRef<TerminalRef>("Terminal").implement({
  description: "A container terminal, by its SMDG code.",
  fields: (t) => ({
    code: t.exposeString("code", { description: "SMDG terminal code." }),
    name: t.exposeString("name"),
    unLocode: t.exposeString("unLocode", { nullable: true }),
  }),
});

const TerminalHoldRef = builder.objectRef<TerminalHold>("TerminalHold").implement({
  description: "An active hold. A lifted hold is not listed (there is no released hold).",
  fields: (t) => ({
    type: t.field({ type: HoldTypeEnum, resolve: (h) => h.type }),
    status: t.field({ type: HoldStatusEnum, resolve: (h) => h.status }),
    description: t.exposeString("description", {
      nullable: true,
      description: "The source's own words (raw terminal text or the DCSA code).",
    }),
  }),
});

const TerminalFactsRef = builder.objectRef<TerminalFacts>("TerminalFacts").implement({
  description: "A box's current facts at a terminal: only what was observed in the last 24 hours.",
  fields: (t) => ({
    availableForPickup: t.exposeBoolean("availableForPickup", {
      nullable: true,
      description: "Whether the terminal lets the box be picked up; null when it does not say.",
    }),
    readyForPickup: t.exposeBoolean("readyForPickup", {
      description: "Available for pickup and no hold of status HOLD.",
    }),
    holds: t.field({
      type: [TerminalHoldRef],
      extensions: LIST_SIZE(HOLD_TYPES.length),
      resolve: (f) => f.holds,
    }),
    lastFreeDay: t.exposeString("lastFreeDay", {
      nullable: true,
      description: "YYYY-MM-DD at the port: the line's last free day when known, else the terminal's.",
    }),
    lastFreeDaySource: t.exposeString("lastFreeDaySource", {
      nullable: true,
      description: "line or terminal: whose date lastFreeDay is.",
    }),
    lastFreeDayLine: t.exposeString("lastFreeDayLine", { nullable: true }),
    lastFreeDayTerminal: t.exposeString("lastFreeDayTerminal", { nullable: true }),
    yardLocation: t.exposeString("yardLocation", { nullable: true }),
    dischargedAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (f) => (f.dischargedAt ? new Date(f.dischargedAt) : null),
    }),
    gateOutAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the box left the terminal (full out).",
      resolve: (f) => (f.gateOutAt ? new Date(f.gateOutAt) : null),
    }),
    checkedAt: t.field({
      type: "DateTime",
      description: "The newest observation behind these facts.",
      resolve: (f) => new Date(f.checkedAt),
    }),
  }),
});

const TerminalEventRef = builder.objectRef<TerminalEvent>("TerminalEvent").implement({
  fields: (t) => ({
    kind: t.field({ type: TerminalEventKindEnum, resolve: (e) => e.kind }),
    holdType: t.field({ type: HoldTypeEnum, nullable: true, resolve: (e) => e.holdType }),
    at: t.field({ type: "DateTime", resolve: (e) => new Date(e.at) }),
    source: t.exposeString("source", { description: "terminal or carrier (its DCSA events)." }),
  }),
});

const TerminalRecordItemRef = builder.objectRef<TerminalRecordItem>("TerminalRecordItem").implement({
  description: "One box at one terminal: FOUND with all facts and events, or FINDING with none.",
  fields: (t) => ({
    state: t.field({ type: TerminalRecordStateEnum, resolve: (i) => i.state }),
    containerNumber: t.exposeString("containerNumber"),
    terminal: t.field({ type: TerminalRefObject, resolve: (i) => i.terminal }),
    facts: t.field({
      type: TerminalFactsRef,
      nullable: true,
      resolve: (i) => (i.state === "found" ? i.facts : null),
    }),
    events: t.field({
      type: [TerminalEventRef],
      nullable: true,
      extensions: LIST_SIZE(8),
      resolve: (i) => (i.state === "found" ? i.events : null),
    }),
  }),
});

builder.prismaObjectFields(ShipmentRef, (t) => ({
  terminal: t.field({
    type: [TerminalRecordItemRef],
    nullable: true,
    // One item per box, like the document's containers.
    extensions: LIST_SIZE(10),
    description:
      "The terminal record: one item per box and terminal (FOUND or FINDING); null when there is none.",
    resolve: async (s, _a, ctx) => {
      if (!s.documentId) return null;
      try {
        const latest = await latestDocuments(ctx).load(s.documentId);
        if (!latest || boxTerminals(latest.content).length === 0) return null;
        return await ctx.services.terminals.recordOf(latest.content);
      } catch (error) {
        ctx.services.logger.warn({ err: error }, "Terminal record could not be read");
        return null;
      }
    },
  }),
}));
