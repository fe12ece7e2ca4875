/**
 * The names the entity extractor looks for, compiled once per process: ports (UN/LOCODE, from the
 * port catalogue plus the names the press uses), carriers (SCAC, from the carrier directory),
 * countries (ISO 3166 alpha-2) and chokepoints (a fixed list of the straits and canals container
 * lanes pass, with aliases). Each entry says whether it is matched case-sensitively (acronyms such as
 * MSC or ONE, which are ordinary words in lower case) and whether it is ambiguous (a name that is
 * also a person, a football club or a US state) and so needs a cue before it counts.
 */
import { createRequire } from "node:module";
import { CARRIERS } from "../carriers/carrier-directory";
import { findPortEntry } from "../ports/port-directory";
import { throughputRank } from "../ports/port-traffic";
import { PRESS_PORT_NAMES } from "./port-press-names";

export type EntityKind = "port" | "carrier" | "country" | "chokepoint";

export interface GazetteerEntry {
  kind: EntityKind | "blocker";
  /** The phrase as matched: folded lower case, or as written when `caseSensitive`. */
  phrase: string;
  /** Codes it names: one locode, SCAC, ISO code or chokepoint id; two for "Red Sea". */
  codes: readonly string[];
  caseSensitive: boolean;
  /** Counts only with a cue: "port of"/"terminal" nearby, or a co-mention of the country it is in. */
  ambiguous: boolean;
  /** 0 to 1: how sure a match of this phrase names the entity. */
  confidence: number;
  /** Country the entity is in (ports): a co-mention of it settles an ambiguous name. */
  countryCode?: string;
  /** The match does not count when the text right after it matches (`ONE Piece`). */
  notFollowedBy?: RegExp;
}

export interface Chokepoint {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** Within this many nautical miles of the point, a sea route passes the chokepoint. */
  radiusNm: number;
  aliases: readonly string[];
}

/**
 * The chokepoints container lanes pass (IMF PortWatch names the same ones), with a point on the
 * fairway and a radius for the lane check. "Red Sea" is not one: it names the approach to two.
 */
export const CHOKEPOINTS: readonly Chokepoint[] = [
  {
    id: "suez_canal",
    name: "Suez Canal",
    lat: 30.6,
    lng: 32.33,
    radiusNm: 60,
    aliases: ["suez canal", "suez"],
  },
  {
    id: "bab_el_mandeb",
    name: "Bab el-Mandeb Strait",
    lat: 12.6,
    lng: 43.35,
    radiusNm: 60,
    aliases: [
      "bab el-mandeb",
      "bab-el-mandeb",
      "bab el mandeb",
      "bab al-mandab",
      "bab al mandab",
      "gulf of aden",
    ],
  },
  {
    id: "strait_of_hormuz",
    name: "Strait of Hormuz",
    lat: 26.55,
    lng: 56.4,
    radiusNm: 50,
    aliases: ["strait of hormuz", "hormuz strait", "hormuz"],
  },
  {
    id: "malacca_strait",
    name: "Strait of Malacca",
    lat: 2.6,
    lng: 101.3,
    radiusNm: 90,
    aliases: ["strait of malacca", "malacca strait", "malacca straits", "singapore strait"],
  },
  { id: "panama_canal", name: "Panama Canal", lat: 9.1, lng: -79.7, radiusNm: 40, aliases: ["panama canal"] },
  {
    id: "bosporus_strait",
    name: "Bosporus Strait",
    lat: 41.1,
    lng: 29.06,
    radiusNm: 30,
    aliases: ["bosporus", "bosphorus", "turkish straits"],
  },
  {
    id: "gibraltar_strait",
    name: "Strait of Gibraltar",
    lat: 35.95,
    lng: -5.6,
    radiusNm: 40,
    aliases: ["strait of gibraltar", "gibraltar strait"],
  },
  {
    id: "cape_of_good_hope",
    name: "Cape of Good Hope",
    lat: -34.8,
    lng: 18.4,
    radiusNm: 150,
    aliases: ["cape of good hope"],
  },
  {
    id: "dover_strait",
    name: "Dover Strait",
    lat: 51.0,
    lng: 1.45,
    radiusNm: 40,
    aliases: ["dover strait", "strait of dover", "english channel"],
  },
  {
    id: "taiwan_strait",
    name: "Taiwan Strait",
    lat: 24.3,
    lng: 119.6,
    radiusNm: 90,
    aliases: ["taiwan strait"],
  },
  {
    id: "korea_strait",
    name: "Korea Strait",
    lat: 34.4,
    lng: 129.3,
    radiusNm: 60,
    aliases: ["korea strait"],
  },
];

export function findChokepoint(id: string): Chokepoint | undefined {
  return CHOKEPOINTS.find((c) => c.id === id);
}

/** "Red Sea" names the approach to Bab el-Mandeb and Suez: both, with less confidence. */
const RED_SEA: GazetteerEntry = {
  kind: "chokepoint",
  phrase: "red sea",
  codes: ["bab_el_mandeb", "suez_canal"],
  caseSensitive: false,
  ambiguous: false,
  confidence: 0.6,
};

/**
 * Names the press uses for ports, beyond the catalogue's own: terminals and districts ("Yangshan",
 * "Maasvlakte"), older names ("Nhava Sheva"), port authorities. `ambiguous` marks names that are
 * also a football club, a person or a town far from the port. Every code is checked against the
 * catalogue when the gazetteer is built; one the catalogue lacks is dropped.
 */
interface PortName {
  name: string;
  locode: string;
  ambiguous?: boolean;
  caseSensitive?: boolean;
  /** What after the name makes it another thing ("Dover Corporation"). */
  notFollowedBy?: RegExp;
}

const PORT_NAMES: readonly PortName[] = [
  { name: "shanghai", locode: "CNSHA" },
  { name: "yangshan", locode: "CNSHA" },
  { name: "singapore", locode: "SGSIN" },
  { name: "ningbo", locode: "CNNGB" },
  { name: "ningbo-zhoushan", locode: "CNNGB" },
  { name: "zhoushan", locode: "CNNGB" },
  { name: "yantian", locode: "CNYTN" },
  { name: "shenzhen", locode: "CNYTN" },
  { name: "shekou", locode: "CNSHK" },
  { name: "qingdao", locode: "CNTAO" },
  { name: "guangzhou", locode: "CNCAN" },
  { name: "nansha", locode: "CNNSA" },
  { name: "busan", locode: "KRPUS" },
  { name: "tianjin", locode: "CNTXG" },
  { name: "jebel ali", locode: "AEJEA" },
  { name: "port klang", locode: "MYPKG" },
  { name: "rotterdam", locode: "NLRTM" },
  { name: "maasvlakte", locode: "NLRTM" },
  { name: "hong kong", locode: "HKHKG" },
  { name: "antwerp", locode: "BEANR" },
  { name: "antwerp-bruges", locode: "BEANR" },
  { name: "xiamen", locode: "CNXMN" },
  { name: "tanjung pelepas", locode: "MYTPP" },
  { name: "los angeles", locode: "USLAX" },
  { name: "san pedro bay", locode: "USLAX" },
  { name: "long beach", locode: "USLGB", ambiguous: true },
  { name: "tanger med", locode: "MAPTM" },
  { name: "laem chabang", locode: "THLCH" },
  { name: "kaohsiung", locode: "TWKHH" },
  { name: "new york", locode: "USNYC" },
  { name: "new york-new jersey", locode: "USNYC" },
  { name: "new york and new jersey", locode: "USNYC" },
  { name: "new jersey", locode: "USNYC" },
  { name: "port newark", locode: "USNYC" },
  { name: "mundra", locode: "INMUN" },
  { name: "hamburg", locode: "DEHAM" },
  { name: "colombo", locode: "LKCMB" },
  { name: "nhava sheva", locode: "INNSA" },
  { name: "jnpt", locode: "INNSA" },
  { name: "savannah", locode: "USSAV" },
  { name: "georgia ports authority", locode: "USSAV" },
  { name: "valencia", locode: "ESVLC", ambiguous: true },
  { name: "santos", locode: "BRSSZ", ambiguous: true },
  { name: "jeddah", locode: "SAJED" },
  { name: "piraeus", locode: "GRPIR" },
  { name: "algeciras", locode: "ESALG" },
  { name: "bremerhaven", locode: "DEBRV" },
  { name: "salalah", locode: "OMSLL" },
  { name: "tokyo", locode: "JPTYO" },
  { name: "houston", locode: "USHOU" },
  { name: "gioia tauro", locode: "ITGIT" },
  { name: "barcelona", locode: "ESBCN", ambiguous: true },
  { name: "felixstowe", locode: "GBFXT" },
  // The ferry port; "Dover Corporation" is an industrial group, "Dover, Delaware" a state capital.
  {
    name: "dover",
    locode: "GBDVR",
    notFollowedBy: /^\s*,?\s+(?:corporation|corp|inc|delaware|air force)\b/i,
  },
  // Capitalised: "the port said" is a port speaking.
  { name: "Port Said", locode: "EGPSD", caseSensitive: true },
  { name: "vancouver", locode: "CAVAN" },
  { name: "prince rupert", locode: "CAPRR" },
  { name: "montreal", locode: "CAMTR" },
  { name: "baltimore", locode: "USBAL" },
  { name: "charleston", locode: "USCHS" },
  { name: "norfolk", locode: "USORF" },
  { name: "virginia", locode: "USORF", ambiguous: true },
  { name: "philadelphia", locode: "USPHL" },
  { name: "boston", locode: "USBOS" },
  { name: "miami", locode: "USMIA" },
  { name: "mobile", locode: "USMOB", ambiguous: true },
  { name: "new orleans", locode: "USMSY" },
  { name: "jacksonville", locode: "USJAX" },
  { name: "oakland", locode: "USOAK" },
  { name: "seattle", locode: "USSEA" },
  { name: "tacoma", locode: "USTIW" },
  { name: "le havre", locode: "FRLEH" },
  { name: "djibouti", locode: "DJJIB", ambiguous: true },
  { name: "hodeidah", locode: "YEHOD" },
  { name: "haifa", locode: "ILHFA" },
  { name: "balboa", locode: "PABLB" },
  { name: "colon", locode: "PAONX", ambiguous: true },
  { name: "manzanillo", locode: "PAMIT", ambiguous: true },
  { name: "victoria", locode: "SCPOV", ambiguous: true },
  { name: "gdansk", locode: "PLGDN" },
  { name: "genoa", locode: "ITGOA" },
  { name: "durban", locode: "ZADUR" },
  { name: "chittagong", locode: "BDCGP" },
  { name: "karachi", locode: "PKKHI" },
  { name: "manila", locode: "PHMNL" },
  { name: "ho chi minh city", locode: "VNSGN" },
  { name: "cai mep", locode: "VNCMT" },
  { name: "haiphong", locode: "VNHPH" },
  { name: "yokohama", locode: "JPYOK" },
  { name: "kobe", locode: "JPUKB" },
  { name: "dalian", locode: "CNDLC" },
  { name: "lianyungang", locode: "CNLYG" },
  { name: "corpus christi", locode: "USCRP" },
];

/** Extra names for carriers, beyond the directory's own name, slug and SCACs. */
const CARRIER_ALIASES: readonly { name: string; scac: string; caseSensitive?: boolean }[] = [
  { name: "MSC", scac: "MSCU", caseSensitive: true },
  { name: "mediterranean shipping company", scac: "MSCU" },
  { name: "maersk", scac: "MAEU" },
  { name: "a.p. moller-maersk", scac: "MAEU" },
  { name: "maersk line", scac: "MAEU" },
  { name: "cma cgm", scac: "CMDU" },
  { name: "cosco", scac: "COSU" },
  { name: "cosco shipping", scac: "COSU" },
  { name: "hapag-lloyd", scac: "HLCU" },
  { name: "hapag lloyd", scac: "HLCU" },
  { name: "ONE", scac: "ONEY", caseSensitive: true },
  { name: "ocean network express", scac: "ONEY" },
  { name: "evergreen", scac: "EGLV" },
  { name: "evergreen marine", scac: "EGLV" },
  { name: "HMM", scac: "HDMU", caseSensitive: true },
  { name: "yang ming", scac: "YMLU" },
  { name: "ZIM", scac: "ZIMU", caseSensitive: true },
  // Its ships carry the name in title case ("Zim Kingston").
  { name: "Zim", scac: "ZIMU", caseSensitive: true },
  { name: "wan hai", scac: "WHLC" },
  { name: "PIL", scac: "PCIU", caseSensitive: true },
  { name: "pacific international lines", scac: "PCIU" },
  // Issue 35, fourth pass: a line no longer trading, still named in its collapse's reports and retrospectives.
  { name: "hanjin", scac: "HJSC" },
  { name: "hanjin shipping", scac: "HJSC" },
  { name: "OOCL", scac: "OOLU", caseSensitive: true },
  { name: "APL", scac: "APLU", caseSensitive: true },
  { name: "hamburg sud", scac: "SUDU" },
  { name: "matson", scac: "MATS" },
  { name: "x-press feeders", scac: "XPRS" },
  // The line's ships carry its brand ("X-Press Pearl"), as Maersk's and MSC's do.
  { name: "X-Press", scac: "XPRS", caseSensitive: true },
  { name: "SITC", scac: "SITU", caseSensitive: true },
  { name: "KMTC", scac: "KMTU", caseSensitive: true },
  { name: "ZIM integrated shipping", scac: "ZIMU" },
];

/** Demonyms and short forms the press uses for countries. */
const COUNTRY_FORMS: readonly { form: string; code: string; caseSensitive?: boolean }[] = [
  { form: "US", code: "US", caseSensitive: true },
  { form: "U.S.", code: "US", caseSensitive: true },
  { form: "USA", code: "US", caseSensitive: true },
  { form: "united states", code: "US" },
  { form: "american", code: "US" },
  { form: "UK", code: "GB", caseSensitive: true },
  { form: "britain", code: "GB" },
  { form: "british", code: "GB" },
  { form: "UAE", code: "AE", caseSensitive: true },
  { form: "emirati", code: "AE" },
  { form: "chinese", code: "CN" },
  { form: "china", code: "CN" },
  { form: "egyptian", code: "EG" },
  { form: "yemeni", code: "YE" },
  { form: "canadian", code: "CA" },
  { form: "dutch", code: "NL" },
  { form: "the netherlands", code: "NL" },
  { form: "german", code: "DE" },
  { form: "panamanian", code: "PA" },
  { form: "indian", code: "IN" },
  { form: "japanese", code: "JP" },
  { form: "south korea", code: "KR" },
  { form: "south korean", code: "KR" },
  { form: "korean", code: "KR" },
  { form: "singaporean", code: "SG" },
  { form: "saudi", code: "SA" },
  { form: "iranian", code: "IR" },
  { form: "israeli", code: "IL" },
  { form: "russian", code: "RU" },
  { form: "ukrainian", code: "UA" },
  { form: "taiwanese", code: "TW" },
  { form: "brazilian", code: "BR" },
  { form: "mexican", code: "MX" },
  { form: "belgian", code: "BE" },
  { form: "french", code: "FR" },
  { form: "spanish", code: "ES" },
  { form: "italian", code: "IT" },
  { form: "greek", code: "GR" },
  { form: "turkish", code: "TR" },
  { form: "malaysian", code: "MY" },
  { form: "vietnamese", code: "VN" },
  { form: "danish", code: "DK" },
  { form: "russia", code: "RU" },
  { form: "iran", code: "IR" },
  { form: "vietnam", code: "VN" },
  { form: "south africa", code: "ZA" },
  { form: "south african", code: "ZA" },
  { form: "taiwan", code: "TW" },
  { form: "syrian", code: "SY" },
  // Issue 35, third pass: the demonyms of the other trading and coastal countries the press names.
  { form: "australian", code: "AU" },
  { form: "new zealand", code: "NZ" },
  { form: "somali", code: "SO" },
  { form: "filipino", code: "PH" },
  { form: "indonesian", code: "ID" },
  { form: "thai", code: "TH" },
  { form: "bangladeshi", code: "BD" },
  { form: "pakistani", code: "PK" },
  { form: "sri lankan", code: "LK" },
  { form: "nigerian", code: "NG" },
  { form: "kenyan", code: "KE" },
  { form: "moroccan", code: "MA" },
  { form: "algerian", code: "DZ" },
  { form: "polish", code: "PL" },
  { form: "swedish", code: "SE" },
  { form: "norwegian", code: "NO" },
  { form: "finnish", code: "FI" },
  { form: "portuguese", code: "PT" },
  { form: "irish", code: "IE" },
  { form: "argentine", code: "AR" },
  // Issue 35, ninth pass: short forms of two-part names the press uses.
  { form: "sao tome", code: "ST" },
  { form: "puerto rican", code: "PR" },
  { form: "argentinian", code: "AR" },
  { form: "chilean", code: "CL" },
  { form: "peruvian", code: "PE" },
  { form: "colombian", code: "CO" },
  { form: "ecuadorian", code: "EC" },
  { form: "qatari", code: "QA" },
  { form: "omani", code: "OM" },
  { form: "kuwaiti", code: "KW" },
  { form: "iraqi", code: "IQ" },
  { form: "lebanese", code: "LB" },
  { form: "djiboutian", code: "DJ" },
  { form: "sudanese", code: "SD" },
  { form: "libyan", code: "LY" },
  { form: "ghanaian", code: "GH" },
  { form: "romanian", code: "RO" },
  { form: "bulgarian", code: "BG" },
  { form: "croatian", code: "HR" },
  { form: "maltese", code: "MT" },
  { form: "cypriot", code: "CY" },
];

/** Country names that are also people, US states or animals: they need another country nearby. */
const AMBIGUOUS_COUNTRIES: ReadonlySet<string> = new Set(["GE", "JO", "TD", "GN", "TR", "JE", "NE"]);

/**
 * Phrases that contain an entity name but name none: a match of one of these swallows the names
 * inside it ("Gulf of Mexico" is not Mexico, "Indian Ocean" not India).
 */
const BLOCKERS: readonly string[] = [
  "gulf of mexico",
  "indian ocean",
  "south china sea",
  "east china sea",
  "american samoa",
  "new mexico",
  "jersey city",
  "british columbia",
  "gulf of oman",
  // Issue 35, ninth pass: a sea named after a country is not the country (piracy off West Africa).
  "gulf of guinea",
];

/**
 * Capitals that stand for their governments in headlines ("Seoul orders truckers back to work",
 * "Ottawa appoints mediators", "Beijing promises to defend"): the country, only where a government's
 * verb or a possessive follows (a capital is also a city with its own news). Capitals that are ports
 * are the ports' entries.
 */
const GOVERNMENT_CAPITALS: readonly {
  name: string;
  code: string;
  /** The capital is also a port of that name (Jakarta's is Tanjung Priok, Tokyo's its own). */
  port?: boolean;
}[] = [
  { name: "seoul", code: "KR" },
  { name: "beijing", code: "CN" },
  { name: "washington", code: "US" },
  { name: "ottawa", code: "CA" },
  { name: "tehran", code: "IR" },
  { name: "new delhi", code: "IN" },
  { name: "canberra", code: "AU" },
  { name: "moscow", code: "RU" },
  { name: "kyiv", code: "UA" },
  { name: "ankara", code: "TR" },
  { name: "berlin", code: "DE" },
  { name: "paris", code: "FR" },
  { name: "madrid", code: "ES" },
  { name: "brasilia", code: "BR" },
  { name: "pretoria", code: "ZA" },
  { name: "hanoi", code: "VN" },
  { name: "islamabad", code: "PK" },
  { name: "riyadh", code: "SA" },
  { name: "taipei", code: "TW" },
  { name: "dhaka", code: "BD" },
  { name: "cairo", code: "EG" },
  { name: "mexico city", code: "MX" },
  // Issue 35, fourteenth pass: capitals that are also ports ("Jakarta widens its export ban").
  { name: "jakarta", code: "ID", port: true },
  { name: "tokyo", code: "JP", port: true },
  { name: "manila", code: "PH", port: true },
  { name: "bangkok", code: "TH", port: true },
  { name: "lisbon", code: "PT", port: true },
];

/**
 * A port's name followed by a word ships are named with is a ship ("Yantian Express", "Colombo
 * Trader", "Singapore Spirit"), not the port.
 */
const SHIP_NAMED_FOR_PORT =
  /^\s+(?:express|trader|star|spirit|highway|senator|triumph|glory|pride|voyager|fortune|endeavour|endeavor|bridge)\b/i;

/** Capitals whose name is also their port's: the port reading yields to a government's act. */
const PORT_CAPITALS: ReadonlySet<string> = new Set(
  GOVERNMENT_CAPITALS.filter((c) => c.port).map((c) => c.name),
);

/** What a government does that a port never does: "Jakarta widens its export ban", "Tokyo imposes". */
const POLICY_VERBS =
  "orders?|ordered|imposes?|imposed|bans?|banned|widens?|widened|raises?|raised|slaps?|says|said|warns?|warned|announces?|announced|approves?|approved|retaliates?|retaliated|proposes?|proposed|agrees?|agreed|threatens?|threatened|extends?|extended|lifts?|lifted|sanctions?|sanctioned|responds?|responded|invokes?|invoked|intervenes?|intervened|appoints?|appointed|promises?|promised|denies|denied|blames?|blamed|accuses?|accused|legislates?";
/** What a government does that a port may do too ("Tokyo halts container work" is the port). */
const SHARED_ACT_VERBS =
  "hikes?|plans?|moves?|suspends?|suspended|targets?|adds?|cuts?|blocks?|blocked|halts?|halted|restricts?|tightens?|eases?|eased|let|lets|steps in|sends?|sent|deploys?|deployed";

/** A port-named capital followed by a policy verb: the government, not the port. */
const GOVERNMENT_POLICY = new RegExp(`^\\s+(?:${POLICY_VERBS})(?![\\p{L}])`, "iu");

/** Blocks a capital's country reading unless a government verb or a possessive follows it. */
const GOVERNMENT_VERB = new RegExp(
  `^(?!\\s*(?:'s|\\u2019s)(?![\\p{L}])|\\s+(?:${POLICY_VERBS}|${SHARED_ACT_VERBS})(?![\\p{L}]))`,
  "iu",
);

function entry(partial: Omit<GazetteerEntry, "confidence"> & { confidence?: number }): GazetteerEntry {
  return { confidence: partial.ambiguous ? 0.7 : 1, ...partial };
}

let compiled: GazetteerEntry[] | undefined;

/** Strips the directory's parenthetical ("Ocean Network Express (ONE)") and folds. */
function plainName(name: string): string {
  return name
    .replace(/\(.*?\)/g, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim();
}

interface CountryNames {
  registerLocale(locale: unknown): void;
  getNames(lang: string, options: { select: "all" | "official" }): Record<string, string[] | string>;
}

let countryModule: CountryNames | undefined;
function countries(): CountryNames {
  if (!countryModule) {
    const require = createRequire(import.meta.url);
    countryModule = require("i18n-iso-countries") as CountryNames;
    countryModule.registerLocale(require("i18n-iso-countries/langs/en.json"));
  }
  return countryModule;
}

function countryNames(): { name: string; code: string }[] {
  const names = countries().getNames("en", { select: "all" }) as Record<string, string[]>;
  return Object.entries(names).flatMap(([code, list]) => list.map((name) => ({ name, code })));
}

/** The English short name of a country (ISO 3166 alpha-2), or the code when unknown. */
export function countryNameOf(code: string): string {
  const names = countries().getNames("en", { select: "official" }) as Record<string, string>;
  return names[code] ?? code;
}

/** Every entry, built once. */
export function gazetteer(): readonly GazetteerEntry[] {
  if (compiled) return compiled;
  const entries: GazetteerEntry[] = [];
  for (const port of PORT_NAMES) {
    const known = findPortEntry(port.locode);
    if (!known) continue;
    entries.push(
      entry({
        kind: "port",
        phrase: port.name,
        codes: [known.locode],
        caseSensitive: port.caseSensitive ?? false,
        ambiguous: port.ambiguous ?? false,
        countryCode: known.countryCode,
        notFollowedBy:
          port.notFollowedBy ?? (PORT_CAPITALS.has(port.name) ? GOVERNMENT_POLICY : SHIP_NAMED_FOR_PORT),
      }),
    );
  }
  for (const port of PRESS_PORT_NAMES) {
    // A code the embedded catalogue lacks counts only where the list says which country it is in.
    const known = findPortEntry(port.locode);
    const countryCode = known?.countryCode ?? port.country;
    if (!countryCode) continue;
    entries.push(
      entry({
        kind: "port",
        phrase: port.caseSensitive ? port.name : port.name.toLowerCase(),
        codes: [known?.locode ?? port.locode],
        caseSensitive: port.caseSensitive ?? false,
        ambiguous: port.ambiguous ?? false,
        countryCode,
        notFollowedBy: PORT_CAPITALS.has(port.name) ? GOVERNMENT_POLICY : SHIP_NAMED_FOR_PORT,
      }),
    );
  }
  for (const carrier of CARRIERS) {
    const codes = [carrier.scac];
    const name = plainName(carrier.name);
    if (name.length > 3)
      entries.push(
        entry({
          kind: "carrier",
          phrase: name,
          codes,
          caseSensitive: false,
          ambiguous: false,
          notFollowedBy: ANOTHER_BUSINESS,
        }),
      );
    for (const scac of [carrier.scac, ...(carrier.alternativeScacs ?? [])]) {
      if (/^[A-Z]{4}$/.test(scac))
        entries.push(entry({ kind: "carrier", phrase: scac, codes, caseSensitive: true, ambiguous: false }));
    }
  }
  for (const alias of CARRIER_ALIASES) {
    entries.push(
      entry({
        kind: "carrier",
        phrase: alias.caseSensitive ? alias.name : alias.name.toLowerCase(),
        codes: [alias.scac],
        caseSensitive: alias.caseSensitive ?? false,
        ambiguous: false,
        // "ONE Piece" is a comic and "ONE Championship" a promoter, not the carrier.
        notFollowedBy: alias.name === "ONE" ? /^\s+(?:piece|championship)\b/i : ANOTHER_BUSINESS,
      }),
    );
  }
  for (const { name, code } of countryNames()) {
    entries.push(
      entry({
        kind: "country",
        phrase: plainName(name),
        codes: [code],
        caseSensitive: false,
        ambiguous: AMBIGUOUS_COUNTRIES.has(code),
      }),
    );
  }
  for (const form of COUNTRY_FORMS) {
    entries.push(
      entry({
        kind: "country",
        phrase: form.caseSensitive ? form.form : form.form.toLowerCase(),
        codes: [form.code],
        caseSensitive: form.caseSensitive ?? false,
        ambiguous: false,
      }),
    );
  }
  for (const capital of GOVERNMENT_CAPITALS) {
    entries.push(
      entry({
        kind: "country",
        phrase: capital.name,
        codes: [capital.code],
        caseSensitive: false,
        ambiguous: false,
        notFollowedBy: GOVERNMENT_VERB,
      }),
    );
  }
  for (const chokepoint of CHOKEPOINTS) {
    for (const alias of chokepoint.aliases) {
      entries.push(
        entry({
          kind: "chokepoint",
          phrase: alias,
          codes: [chokepoint.id],
          caseSensitive: false,
          ambiguous: false,
        }),
      );
    }
  }
  entries.push(RED_SEA);
  for (const phrase of BLOCKERS) {
    entries.push(entry({ kind: "blocker", phrase, codes: [], caseSensitive: false, ambiguous: false }));
  }
  compiled = entries;
  return compiled;
}

/**
 * A carrier's name followed by another trade is another business of its group or its namesake ("Hapag-Lloyd
 * Cruises", "MSC Cruises", "Maersk Drilling"): its bookings and results are not the line's network.
 */
const ANOTHER_BUSINESS =
  /^\s+(?:cruises?|cruise line|airlines?|air cargo|foundation|bank|hotels?|drilling|supply service|arena|stadium)\b/i;

/** Whether a port is one of the largest (a closure of one is critical, severity 4). */
export function isMajorPort(locode: string): boolean {
  return throughputRank(locode) !== undefined;
}
