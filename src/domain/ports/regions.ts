/**
 * The `region` of a port (v1 section 2.9): the UN M49 geographic sub-region of its country, using the
 * intermediate regions where M49 has them (Western Africa, Caribbean, South America...), which are the
 * ones shipping trades are named after. From the UN Statistics Division's M49 standard; codes are
 * ISO 3166-1 alpha-2 (plus XK for Kosovo, which UN/LOCODE uses).
 */
const REGIONS: Readonly<Record<string, string>> = {
  "Northern Africa": "DZ EG LY MA SD TN EH",
  "Eastern Africa": "IO BI KM DJ ER ET TF KE MG MW MU YT MZ RE RW SC SO SS UG TZ ZM ZW",
  "Middle Africa": "AO CM CF TD CG CD GQ GA ST",
  "Southern Africa": "BW SZ LS NA ZA",
  "Western Africa": "BJ BF CV CI GM GH GN GW LR ML MR NE NG SH SN SL TG",
  Caribbean: "AI AG AW BS BB BQ VG KY CU CW DM DO GD GP HT JM MQ MS PR BL KN LC MF VC SX TT TC VI",
  "Central America": "BZ CR SV GT HN MX NI PA",
  "South America": "AR BO BV BR CL CO EC FK GF GY PY PE GS SR UY VE",
  "Northern America": "BM CA GL PM US",
  "Central Asia": "KZ KG TJ TM UZ",
  "Eastern Asia": "CN HK MO KP JP MN KR TW",
  "South-eastern Asia": "BN KH ID LA MY MM PH SG TH TL VN",
  "Southern Asia": "AF BD BT IN IR MV NP PK LK",
  "Western Asia": "AM AZ BH CY GE IQ IL JO KW LB OM QA SA PS SY TR AE YE",
  "Eastern Europe": "BY BG CZ HU PL MD RO RU SK UA",
  "Northern Europe": "AX DK EE FO FI GG IS IE IM JE LV LT NO SJ SE GB",
  "Southern Europe": "AL AD BA HR GI GR VA IT MT ME MK PT SM RS SI ES XK",
  "Western Europe": "AT BE FR DE LI LU MC NL CH",
  "Australia and New Zealand": "AU CX CC HM NZ NF",
  Melanesia: "FJ NC PG SB VU",
  Micronesia: "GU KI MH FM NR MP PW UM",
  Polynesia: "AS CK PF NU PN WS TK TO TV WF",
  Antarctica: "AQ",
};

const REGION_BY_COUNTRY: ReadonlyMap<string, string> = new Map(
  Object.entries(REGIONS).flatMap(([region, codes]) => codes.split(" ").map((code) => [code, region])),
);

/** The M49 region of a country, or null for codes outside M49 (XZ, international waters). */
export function regionOfCountry(countryCode: string): string | null {
  return REGION_BY_COUNTRY.get(countryCode.toUpperCase()) ?? null;
}
