/**
 * The vessel register shared by the service (its vessel identities: IMO number and MMSI of the ships a
 * carrier names, src/domain/vessels/vessel-register.ts) and the carrier simulator (the ships of its
 * world, simulator/world/fleet.ts). Data only.
 *
 * Sixty container ships, six for each of the ten largest carriers: name, IMO number and flag as
 * registered (Equasis/GISIS, via github.com/interreg-speed/IMO-VESSEL-NAMES), nominal TEU of the ship
 * or its class from the trade press, and the operator's SCAC. MMSI is kept where a public source gives
 * one (T&T 2.2 has no field for it, but other feeds of the same world do). Every IMO number passes the
 * 7,6,5,4,3,2 check.
 */

export interface Vessel {
  name: string;
  imo: string;
  mmsi?: string;
  /** ISO 3166 flag code (registers such as DIS or RIF fold into their country). */
  flag: string;
  callSign?: string;
  teu: number;
  /** SCAC of the operating carrier group. */
  operator: string;
}

function v(
  operator: string,
  name: string,
  imo: string,
  teu: number,
  flag: string,
  extra: Partial<Vessel> = {},
): Vessel {
  return { name, imo, teu, flag, operator, ...extra };
}

export const VESSELS: readonly Vessel[] = [
  v("MSCU", "MSC GULSUN", "9839430", 23756, "PA"),
  v("MSCU", "MSC SAMAR", "9839442", 23756, "PA"),
  v("MSCU", "MSC MINA", "9839260", 23656, "PA"),
  v("MSCU", "MSC ISABELLA", "9839272", 23656, "PA"),
  v("MSCU", "MSC OSCAR", "9703291", 19224, "PA"),
  v("MSCU", "MSC LONDON", "9606302", 16650, "PA"),
  v("MAEU", "MAERSK MC-KINNEY MOLLER", "9619907", 18270, "DK"),
  v("MAEU", "MADRID MAERSK", "9778791", 20568, "DK"),
  v("MAEU", "MUMBAI MAERSK", "9780471", 20568, "DK"),
  v("MAEU", "MANCHESTER MAERSK", "9780445", 20568, "DK"),
  v("MAEU", "MAERSK HANGZHOU", "9784300", 15226, "SG"),
  v("MAEU", "MAERSK HALIFAX", "9784271", 15226, "SG"),
  v("CMDU", "CMA CGM JACQUES SAADE", "9839179", 23112, "FR"),
  v("CMDU", "CMA CGM CHAMPS ELYSEES", "9839131", 23112, "FR"),
  v("CMDU", "CMA CGM PALAIS ROYAL", "9839181", 23112, "FR"),
  v("CMDU", "CMA CGM ANTOINE DE SAINT EXUPERY", "9776418", 20954, "FR", {
    mmsi: "228098700",
    callSign: "FJZP",
  }),
  v("CMDU", "CMA CGM BOUGAINVILLE", "9702156", 17722, "FR"),
  v("CMDU", "CMA CGM JULES VERNE", "9454450", 16022, "FR"),
  v("COSU", "COSCO SHIPPING UNIVERSE", "9795610", 21237, "HK"),
  v("COSU", "COSCO SHIPPING PLANET", "9795660", 21237, "HK"),
  v("COSU", "COSCO SHIPPING ARIES", "9783497", 19273, "HK"),
  v("COSU", "COSCO SHIPPING TAURUS", "9783459", 20119, "HK"),
  v("COSU", "OOCL HONG KONG", "9776171", 21413, "HK"),
  v("COSU", "OOCL GERMANY", "9776183", 21413, "HK"),
  v("HLCU", "AL MURAYKH", "9708863", 18800, "MT"),
  v("HLCU", "BARZAN", "9708851", 18800, "MT"),
  v("HLCU", "AL DAHNA", "9708825", 18800, "MT"),
  v("HLCU", "AL JMELIYAH", "9732357", 15000, "MH"),
  v("HLCU", "AL MASHRAB", "9732319", 15000, "MH"),
  v("HLCU", "SAJIR", "9708784", 15000, "DE"),
  v("ONEY", "ONE INNOVATION", "9939137", 24136, "LR"),
  v("ONEY", "MOL TRIUMPH", "9769271", 20170, "MH"),
  v("ONEY", "MOL TRUTH", "9773210", 20170, "PA"),
  v("ONEY", "ONE APUS", "9806079", 14000, "JP"),
  v("ONEY", "ONE STORK", "9784788", 14000, "JP"),
  v("ONEY", "ONE MINATO", "9805477", 14000, "JP"),
  v("EGLV", "EVER ACE", "9893890", 23992, "PA"),
  v("EGLV", "EVER GIVEN", "9811000", 20124, "PA", { mmsi: "353136000" }),
  v("EGLV", "EVER GOLDEN", "9811012", 20124, "PA"),
  v("EGLV", "EVER GLORY", "9786839", 20160, "LR"),
  v("EGLV", "EVER GOVERN", "9832717", 20160, "PA"),
  v("EGLV", "EVER GREET", "9832729", 20160, "PA"),
  v("HDMU", "HMM ALGECIRAS", "9863297", 23964, "PA"),
  v("HDMU", "HMM COPENHAGEN", "9863302", 23964, "PA"),
  v("HDMU", "HMM HAMBURG", "9863338", 23964, "PA"),
  v("HDMU", "HMM OSLO", "9868326", 23820, "PA"),
  v("HDMU", "HMM ST PETERSBURG", "9868364", 23820, "PA"),
  v("HDMU", "HMM ROTTERDAM", "9868338", 23820, "PA"),
  v("YMLU", "YM WARRANTY", "9757228", 14220, "PA"),
  v("YMLU", "YM WELLSPRING", "9757230", 14220, "PA"),
  v("YMLU", "YM WISDOM", "9757216", 14220, "SG"),
  v("YMLU", "YM WIND", "9708461", 14000, "HK"),
  v("YMLU", "YM WREATH", "9708473", 14000, "HK"),
  v("YMLU", "YM WELLNESS", "9704623", 14000, "HK"),
  v("ZIMU", "ZIM ANTWERP", "9398448", 10062, "LR"),
  v("ZIMU", "ZIM ROTTERDAM", "9398450", 10062, "LR"),
  v("ZIMU", "ZIM SAN DIEGO", "9398412", 8400, "LR"),
  v("ZIMU", "ZIM CHICAGO", "9398424", 8400, "LR"),
  v("ZIMU", "ZIM NINGBO", "9398400", 8400, "LR"),
  v("ZIMU", "ZIM KINGSTON", "9389693", 4253, "MT"),
];
