import type { TerminalRecordFieldsFragment } from "../../generated/operations";

/** The terminal record of spec v1 section 2.3 in snake_case (keys: docs/decisions/terminals.md). */
export function renderTerminalRecord(items: readonly TerminalRecordFieldsFragment[] | null) {
  if (items === null) return null;
  return items.map((item) => {
    const head = {
      container_number: item.containerNumber,
      terminal: { code: item.terminal.code, name: item.terminal.name, locode: item.terminal.unLocode },
    };
    const facts = item.facts;
    if (item.state !== "FOUND" || !facts) return { ...head, status: "finding" as const };
    return {
      ...head,
      status: "found" as const,
      available_for_pickup: facts.availableForPickup,
      ready_for_pickup: facts.readyForPickup,
      holds: facts.holds.map((h) => ({
        type: h.type.toLowerCase(),
        status: h.status.toLowerCase(),
        description: h.description,
      })),
      last_free_day: facts.lastFreeDay,
      last_free_day_source: facts.lastFreeDaySource,
      line_last_free_day: facts.lastFreeDayLine,
      terminal_last_free_day: facts.lastFreeDayTerminal,
      yard_location: facts.yardLocation,
      discharged_at: facts.dischargedAt,
      gate_out_at: facts.gateOutAt,
      checked_at: facts.checkedAt,
      events: (item.events ?? []).map((e) => ({
        event: e.kind.toLowerCase(),
        hold_type: e.holdType?.toLowerCase() ?? null,
        at: e.at,
        source: e.source,
      })),
    };
  });
}
