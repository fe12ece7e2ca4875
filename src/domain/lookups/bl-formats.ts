/**
 * Published bill-of-lading number layouts (Vizion's "Bill of lading number formatting",
 * https://docs.vizionapi.com/docs/formatting-bl, and carriers' own pages), for the `spec` source of
 * carrier lookups: a number that matches a carrier's whole layout, prefix and body, is that carrier's
 * with high confidence. Only
 * layouts that carry a carrier prefix are listed: all-digit layouts (Maersk's 9 digits, COSCO's and
 * Matson's 10, Evergreen's 12) are shared by several lines and prove nothing on their own.
 */
export const BL_LAYOUTS: Readonly<Record<string, readonly RegExp[]>> = {
  MSCU: [/^MEDU[A-Z0-9]{2}\d{6}$/],
  MAEU: [/^MAEU\d{9}$/],
  SUDU: [/^SUDU[A-Z0-9]{12}$/],
  CMDU: [/^CMDU[A-Z]{3}\d{7}$/],
  APLU: [/^APLU[A-Z]{3}\d{7}$/, /^APLU0?\d{8}$/],
  ANNU: [/^ANLC[A-Z]{3}\d{7}$/],
  COSU: [/^COSU\d{10}$/],
  OOLU: [/^OOLU\d{10}$/],
  HLCU: [/^HLCU[A-Z]{2}[A-Z0-9][A-Z0-9]{9}$/],
  ONEY: [/^ONEY[A-Z]{3}\d{9}$/, /^ONEY[A-Z]{4}\d{8}$/],
  HDMU: [/^HDMU[A-Z]{4}\d{8}$/],
  YMLU: [/^YMLU[EBTW]\d{9}$/],
  ZIMU: [/^ZIMU[A-Z]{3}\d{4,7}$/],
};

/** SCACs whose published layout the normalized bill of lading matches. */
export function carriersByLayout(billOfLading: string): string[] {
  return Object.entries(BL_LAYOUTS)
    .filter(([, layouts]) => layouts.some((layout) => layout.test(billOfLading)))
    .map(([scac]) => scac);
}
