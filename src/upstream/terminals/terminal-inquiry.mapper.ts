/**
 * A terminal container inquiry (the simulator's terminals answer in this shape, like the public
 * inquiry pages of terminal operating systems) read into the domain's TerminalAnswer. Hold names are
 * the terminal's own words, case as it writes them; they are mapped here to the domain's hold types,
 * and a hold with a blank status is no hold.
 */
import { z } from "zod";
import {
  activeHolds,
  type HoldType,
  type TerminalAnswer,
  type TerminalEvent,
  type TerminalEventKind,
} from "../../domain/terminals/terminal-facts";

const instant = z.string().refine((v) => !Number.isNaN(Date.parse(v)), "not a date-time");
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const terminalInquirySchema = z.object({
  container: z.string(),
  checkedAt: instant,
  available: z.boolean().nullish(),
  holds: z
    .array(z.object({ name: z.string(), status: z.string().nullish(), description: z.string().nullish() }))
    .default([]),
  lastFreeDay: z.object({ line: day.nullish(), terminal: day.nullish() }).nullish(),
  yardLocation: z.string().nullish(),
  dischargedAt: instant.nullish(),
  gateOutAt: instant.nullish(),
  events: z.array(z.object({ type: z.string(), hold: z.string().nullish(), at: instant })).default([]),
});

/** Terminal hold names (Terminal49's list and what inquiry pages show) to the domain's types. */
const HOLD_NAMES: Readonly<Record<string, HoldType>> = {
  CUSTOMS: "customs",
  CBP: "customs",
  VACIS: "customs",
  FREIGHT: "freight",
  LINE: "freight",
  USDA: "usda",
  TMF: "terminal",
  TERMINAL: "terminal",
  OTHER: "other",
};

const EVENT_TYPES: Readonly<Record<string, TerminalEventKind>> = {
  DISCHARGED: "discharged",
  HOLD: "hold_placed",
  RELEASE: "hold_released",
  AVAILABLE: "available_for_pickup",
  GATE_OUT: "gated_out",
};

function holdTypeOf(name: string): HoldType {
  return HOLD_NAMES[name.trim().toUpperCase()] ?? "other";
}

const iso = (value: string) => new Date(value).toISOString();

export type InquiryRead = { ok: true; answer: TerminalAnswer } | { ok: false; detail: string };

export function readTerminalInquiry(body: unknown): InquiryRead {
  const parsed = terminalInquirySchema.safeParse(body);
  if (!parsed.success) return { ok: false, detail: parsed.error.issues[0]?.message ?? "unreadable answer" };
  const v = parsed.data;
  const events: TerminalEvent[] = v.events.flatMap((e) => {
    const kind = EVENT_TYPES[e.type.trim().toUpperCase()];
    if (!kind) return [];
    const holdType = kind === "hold_placed" || kind === "hold_released" ? holdTypeOf(e.hold ?? "") : null;
    return [{ kind, holdType, at: iso(e.at), source: "terminal" as const }];
  });
  return {
    ok: true,
    answer: {
      observedAt: iso(v.checkedAt),
      availableForPickup: v.available ?? null,
      holds: activeHolds(
        v.holds.map((h) => ({
          type: holdTypeOf(h.name),
          status: h.status ?? null,
          description: h.description,
        })),
      ),
      lastFreeDayLine: v.lastFreeDay?.line ?? null,
      lastFreeDayTerminal: v.lastFreeDay?.terminal ?? null,
      yardLocation: v.yardLocation?.trim() || null,
      dischargedAt: v.dischargedAt ? iso(v.dischargedAt) : null,
      gateOutAt: v.gateOutAt ? iso(v.gateOutAt) : null,
      events,
    },
  };
}
