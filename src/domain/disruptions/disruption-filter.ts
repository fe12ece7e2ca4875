import { DISRUPTION_CATEGORIES, type DisruptionCategory, isDisruptionCategory } from "./categories";
import type { DisruptionFilter } from "./disruptions.service";

/** v1 rule 10: page size 1 to 100, default 25. */
export const DEFAULT_DISRUPTION_PAGE_SIZE = 25;
export const MAX_DISRUPTION_PAGE_SIZE = 100;

/** The filters as a caller sent them (REST query strings are already strings; GraphQL the same). */
export interface DisruptionFilterInput {
  severity?: number | null;
  category?: string | null;
  port?: string | null;
  carrier?: string | null;
  country?: string | null;
  status?: string | null;
  since?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

export type DisruptionFilterParam =
  | "severity"
  | "category"
  | "port"
  | "carrier"
  | "country"
  | "status"
  | "since"
  | "page"
  | "page_size";

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const SCAC = /^[A-Z]{4}$/;
const ISO2 = /^[A-Z]{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * Checks and normalises the filters of GET /disruptions; answers the first bad one with its REST
 * name. Codes are taken in any case and answered in upper case.
 */
export function checkDisruptionFilter(
  input: DisruptionFilterInput,
): { ok: true; filter: DisruptionFilter } | { ok: false; param: DisruptionFilterParam; message: string } {
  const severity = input.severity ?? 1;
  if (!Number.isInteger(severity) || severity < 1 || severity > 4)
    return {
      ok: false,
      param: "severity",
      message: "severity must be a whole number from 1 to 4 (the minimum).",
    };
  let category: DisruptionCategory | null = null;
  if (input.category != null) {
    if (!isDisruptionCategory(input.category))
      return {
        ok: false,
        param: "category",
        message: `category must be one of ${DISRUPTION_CATEGORIES.join(", ")}.`,
      };
    category = input.category;
  }
  const code = (value: string | null | undefined) => (value == null ? null : value.trim().toUpperCase());
  const port = code(input.port);
  if (port !== null && !LOCODE.test(port))
    return { ok: false, param: "port", message: "port must be a UN/LOCODE, e.g. CNSHA." };
  const carrier = code(input.carrier);
  if (carrier !== null && !SCAC.test(carrier))
    return { ok: false, param: "carrier", message: "carrier must be a 4-letter SCAC, e.g. MAEU." };
  const country = code(input.country);
  if (country !== null && !ISO2.test(country))
    return { ok: false, param: "country", message: "country must be an ISO 3166 alpha-2 code, e.g. CN." };
  const status = input.status ?? "active";
  if (status !== "active" && status !== "resolved")
    return { ok: false, param: "status", message: "status must be active or resolved." };
  let since: Date | null = null;
  if (input.since != null) {
    const at = INSTANT.test(input.since) ? new Date(input.since) : null;
    if (!at || Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1)
      return {
        ok: false,
        param: "since",
        message: "since must be an ISO 8601 date or date-time, e.g. 2026-11-01T00:00:00Z.",
      };
    since = at;
  }
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000)
    return { ok: false, param: "page", message: "page must be a whole number from 1." };
  const pageSize = input.pageSize ?? DEFAULT_DISRUPTION_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_DISRUPTION_PAGE_SIZE)
    return {
      ok: false,
      param: "page_size",
      message: `page_size must be a whole number from 1 to ${MAX_DISRUPTION_PAGE_SIZE}.`,
    };
  return { ok: true, filter: { severity, category, port, carrier, country, status, since, page, pageSize } };
}
