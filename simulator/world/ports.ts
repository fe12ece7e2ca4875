/**
 * Ports of the simulated world. The first 60 are the largest container ports by 2024 throughput
 * (Lloyd's List One Hundred Container Ports 2025, https://en.portnews.ru/news/381216, and Alphaliner
 * and port-authority figures), with the code carriers send and the main terminal's coordinates and
 * time zone. The others are ports named in the liner rotations of services.ts and outside the top 60;
 * their coordinates are those of their main terminal.
 *
 * Terminals and their codes come from the SMDG Master Terminal Facilities List (CC BY 4.0, attributed to
 * the SMDG Secretariat; public copy datasets/smdg-master-terminal-facilities-list). SMDG files some
 * Chinese terminals under the 2024 city code (CNSGH, CNNBO); carrier feeds send the carrier code with the
 * same terminal code, and so does the simulator.
 */

export type Region =
  | "east-asia"
  | "southeast-asia"
  | "south-asia"
  | "middle-east"
  | "europe"
  | "north-africa"
  | "west-africa"
  | "north-america"
  | "central-america"
  | "south-america"
  | "oceania";

export interface Terminal {
  /** SMDG terminal code, unique within the port's UN/LOCODE. */
  smdgCode: string;
  name: string;
  lat: number;
  lng: number;
}

export interface Port {
  /** The code carrier feeds send, which carriers keep after UN/LOCODE moves a port to a new code. */
  unLocode: string;
  /** Other codes for the same port, accepted wherever a port code is looked up. */
  aliases: readonly string[];
  name: string;
  countryCode: string;
  lat: number;
  lng: number;
  timeZone: string;
  region: Region;
  /** Rank among the 60 largest container ports by 2024 throughput; absent for rotation-only ports. */
  rank?: number;
  terminals: readonly Terminal[];
}

function t(smdgCode: string, name: string, lat: number, lng: number): Terminal {
  return { smdgCode, name, lat, lng };
}

interface PortExtras {
  rank?: number;
  aliases?: readonly string[];
  terminals?: readonly Terminal[];
}

function port(
  unLocode: string,
  name: string,
  countryCode: string,
  lat: number,
  lng: number,
  timeZone: string,
  region: Region,
  extras: PortExtras = {},
): Port {
  return {
    unLocode,
    aliases: extras.aliases ?? [],
    name,
    countryCode,
    lat,
    lng,
    timeZone,
    region,
    ...(extras.rank === undefined ? {} : { rank: extras.rank }),
    terminals: extras.terminals ?? [],
  };
}

export const PORTS: readonly Port[] = [
  // The 60 largest container ports by 2024 throughput.
  port("CNSHA", "Shanghai", "CN", 30.62, 122.06, "Asia/Shanghai", "east-asia", {
    rank: 1,
    aliases: ["CNSGH", "CNWGQ"],
    terminals: [
      t("SGICT", "SHANGHAI GUANDONG INTERNATIONAL CONTAINER TERMINAL", 30.61333, 122.075),
      t("SHENG", "SHANGHAI SHENGDONG INTERNATIONAL CONTAINER TERMINAL", 30.6325, 122.04778),
      t("SECT", "SHANGHAI EAST CONTAINER TERMINAL", 31.33917, 121.65056),
    ],
  }),
  port("SGSIN", "Singapore", "SG", 1.265, 103.77, "Asia/Singapore", "southeast-asia", {
    rank: 2,
    terminals: [
      t("PSAPPT", "PSA PASIR PANJANG TERMINALS", 1.28333, 103.77667),
      t("PSATUA", "PSA TUAS TERMINALS", 1.26639, 103.61556),
    ],
  }),
  port("CNNGB", "Ningbo-Zhoushan", "CN", 29.93, 121.87, "Asia/Shanghai", "east-asia", {
    rank: 3,
    aliases: ["CNNBO", "CNNBG", "CNBLG", "CNZOS"],
    terminals: [
      t("BLCT6", "NINGBO MEISHAN ISLAND INTERNATIONAL CONTAINER TERMINAL (MSICT)", 29.77167, 122.00028),
      t("BLCT2", "NINGBO BEILUN SECOND CONTAINER TERMINAL (NBSCT)", 29.945, 121.83667),
      t("BLCT1", "NINGBO BEILUN INTERNATIONAL CONTAINER TERMINAL (NBCT)", 29.93611, 121.86667),
    ],
  }),
  port("CNYTN", "Shenzhen (Yantian)", "CN", 22.575, 114.275, "Asia/Shanghai", "east-asia", {
    rank: 4,
    aliases: ["CNSZX", "CNSNZ"],
    terminals: [t("YICT", "YANTIAN INTERNATIONAL CONTAINER TERMINAL", 22.57278, 114.26889)],
  }),
  port("CNTAO", "Qingdao", "CN", 36.01, 120.21, "Asia/Shanghai", "east-asia", {
    rank: 5,
    aliases: ["CNQIN", "CNQDG"],
    terminals: [
      t("QQCTU", "QINGDAO QIANWAN UNITED CONTAINER TERMINAL", 35.99944, 120.21167),
      t("QQCTN", "QINGDAO NEW QIANWAN CONTAINER TERMINAL", 36.01222, 120.23333),
    ],
  }),
  port("CNNSA", "Guangzhou (Nansha)", "CN", 22.65, 113.67, "Asia/Shanghai", "east-asia", {
    rank: 6,
    aliases: ["CNCAN", "CNGGZ"],
    terminals: [
      t("NANS", "GUANGZHOU SOUTH CHINA OCEANGATE CONTAINER TERMINAL (GOCT)", 22.63833, 113.68278),
      t("NICT", "NANSHA INTERNATIONAL CONTAINER TERMINAL (PHASE III)", 22.62222, 113.68694),
    ],
  }),
  port("KRPUS", "Busan", "KR", 35.075, 128.82, "Asia/Seoul", "east-asia", {
    rank: 7,
    aliases: ["KRBNP"],
    terminals: [
      t("PNC", "PUSAN NEW PORT CO. (PNC)", 35.07778, 128.8075),
      t("HPNT", "HMM PSA NEW-PORT TERMINAL (HPNT)", 35.07, 128.82639),
      t("BNCT", "BUSAN NEW CONTAINER TERMINAL (BNCT)", 35.06778, 128.81278),
      t("HJNC", "HANJIN BUSAN NEW PORT CO. (HJNC)", 35.07778, 128.79111),
    ],
  }),
  port("CNTXG", "Tianjin (Xingang)", "CN", 38.99, 117.79, "Asia/Shanghai", "east-asia", {
    rank: 8,
    aliases: ["CNTSN", "CNTNJ"],
    terminals: [
      t("TACT1", "TIANJIN PORT ALLIANCE INTERNATIONAL CONTAINER TERMINAL (TACT)", 38.99472, 117.77639),
      t("TPCT1", "TIANJIN PORT PACIFIC INTERNATIONAL CONTAINER TERMINAL (TPCT)", 38.99972, 117.79139),
    ],
  }),
  port("AEJEA", "Jebel Ali", "AE", 25.01, 55.06, "Asia/Dubai", "middle-east", {
    rank: 9,
    terminals: [
      t("DPWJA", "DP WORLD JEBEL ALI - CT1", 24.99222, 55.06611),
      t("DPWJ3", "DP WORLD JEBEL ALI - CT3", 24.98917, 55.05083),
    ],
  }),
  port("MYPKG", "Port Klang", "MY", 2.93, 101.3, "Asia/Kuala_Lumpur", "southeast-asia", {
    rank: 10,
    terminals: [
      t("KMT", "WESTPORT KELANG MULTI TERMINAL (KMT)", 2.935, 101.295),
      t("NPM", "NORTHPORT MALAYSIA", 3.03722, 101.35722),
    ],
  }),
  port("NLRTM", "Rotterdam", "NL", 51.955, 4.04, "Europe/Amsterdam", "europe", {
    rank: 11,
    terminals: [
      t("RWG", "ROTTERDAM WORLD GATEWAY", 51.95333, 3.99111),
      t("EMX", "ECT EUROMAX TERMINAL (EMX)", 51.97417, 4.03806),
      t("NLMVII", "APM TERMINALS ROTTERDAM MAASVLAKTE 2", 51.95417, 4.00333),
      t("DDE", "ECT DELTA DEDICATED EAST (DDE)", 51.95028, 4.06417),
    ],
  }),
  port("HKHKG", "Hong Kong", "HK", 22.34, 114.12, "Asia/Hong_Kong", "east-asia", {
    rank: 12,
    terminals: [
      t("MTLHK", "HONG KONG MODERN TERMINALS (MTL)", 22.34778, 114.12056),
      t("HITHK", "HONG KONG INTERNATIONAL TERMINALS (HIT)", 22.33222, 114.12583),
      t("CHTHK", "COSCO-HIT (CHT)", 22.32639, 114.13222),
    ],
  }),
  port("BEANR", "Antwerp-Bruges", "BE", 51.28, 4.26, "Europe/Brussels", "europe", {
    rank: 13,
    terminals: [
      t("K1742", "MPET DEURGANCK DOCK WEST (K1742)", 51.29278, 4.2575),
      t("K913", "PSA NOORDZEE TERMINAL (K913)", 51.35083, 4.26528),
      t("1700", "ANTWERP GATEWAY TERMINAL (K1700-K1710)", 51.29194, 4.26556),
    ],
  }),
  port("CNXMN", "Xiamen", "CN", 24.45, 117.99, "Asia/Shanghai", "east-asia", {
    rank: 14,
    aliases: ["CNXAM", "CNXMG"],
    terminals: [
      t("XOGT", "XIAMEN OCEAN GATE TERMINAL", 24.455, 117.97167),
      t("XICT", "XIAMEN INTERNATIONAL CONTAINER TERMINAL (XICT)", 24.44611, 118.01417),
    ],
  }),
  port("MYTPP", "Tanjung Pelepas", "MY", 1.365, 103.55, "Asia/Kuala_Lumpur", "southeast-asia", {
    rank: 15,
    terminals: [t("PTP", "PORT OF TANJUNG PELEPAS (PTP)", 1.3625, 103.54583)],
  }),
  port("USLAX", "Los Angeles", "US", 33.74, -118.27, "America/Los_Angeles", "north-america", {
    rank: 16,
    terminals: [
      t("APMT", "APM TERMINALS LOS ANGELES PIER 400", 33.73139, -118.24861),
      t("TRAP", "TRAPAC CONTAINER TERMINAL", 33.76611, -118.27083),
      t("WBCT", "WEST BASIN CONTAINER TERMINAL (WBCT)", 33.75694, -118.27778),
      t("EAGLE", "FENIX MARINE CONTAINER TERMINAL (FMS)", 33.73389, -118.25306),
    ],
  }),
  port("MAPTM", "Tanger Med", "MA", 35.885, -5.5, "Africa/Casablanca", "north-africa", {
    rank: 17,
    terminals: [
      t("APMT", "APM TERMINALS TANGIER", 35.89, -5.49667),
      t("EURTN", "EUROGATE TANGIER", 35.89528, -5.49056),
      t("TAT", "TANGER ALLIANCE TERMINAL", 35.87556, -5.52556),
      t("APM2", "APM TERMINALS TANGIER MEDPORT 2", 35.86306, -5.53833),
    ],
  }),
  port("THLCH", "Laem Chabang", "TH", 13.08, 100.88, "Asia/Bangkok", "southeast-asia", {
    rank: 18,
    terminals: [
      t("LCIT", "LAEM CHABANG INTERNATIONAL TERMINAL (LCIT), B5/C3", 13.05278, 100.89111),
      t("LCHB1", "LCB CONTAINER TERMINAL 1 (LCB1), B1", 13.06694, 100.89694),
      t("HLTD", "HUTCHISON LAEM CHABANG TERMINAL D", 13.04917, 100.89806),
    ],
  }),
  port("USLGB", "Long Beach", "US", 33.755, -118.215, "America/Los_Angeles", "north-america", {
    rank: 19,
    terminals: [
      t("LBCT", "LONG BEACH CONTAINER TERMINAL (PIER E)", 33.75917, -118.21361),
      t("TTI", "TOTAL TERMINALS INTERNATIONAL (PIER T)", 33.75472, -118.23361),
      t("ITS", "ITS LONG BEACH (PIER G)", 33.745, -118.195),
      t("SSAPCT", "PACIFIC CONTAINER TERMINAL LONG BEACH (PIER J)", 33.74222, -118.18889),
    ],
  }),
  port("CNTAC", "Suzhou (Taicang)", "CN", 31.62, 121.23, "Asia/Shanghai", "east-asia", {
    rank: 20,
    terminals: [
      t("TIC", "TAICANG INTERNATIONAL CONTAINER TERMINAL (TICT)", 31.64139, 121.22528),
      t("SMTL", "SUZHOU MODERN TERMINALS", 31.6475, 121.21694),
    ],
  }),
  port("TWKHH", "Kaohsiung", "TW", 22.57, 120.32, "Asia/Taipei", "east-asia", {
    rank: 21,
    terminals: [
      t("EMCKC7", "EVERGREEN TERMINAL KCC7 (S01-S05)", 22.53667, 120.31583),
      t("KMCT", "KAO MING TERMINAL (W108-W111)", 22.54528, 120.32639),
      t("KAOCT", "OOCL TERMINAL (W65-W67)", 22.57333, 120.30806),
    ],
  }),
  port("VNSGN", "Ho Chi Minh City (Cat Lai)", "VN", 10.76, 106.79, "Asia/Ho_Chi_Minh", "southeast-asia", {
    rank: 22,
    aliases: ["VNCLI"],
    terminals: [t("CATLAI", "TAN CANG - CAT LAI TERMINAL", 10.76083, 106.795)],
  }),
  port("CNQZH", "Beibu Gulf (Qinzhou)", "CN", 21.68, 108.61, "Asia/Shanghai", "east-asia", {
    rank: 23,
    terminals: [t("BICT", "BEIBU GULF INTERNATIONAL CONTAINER TERMINAL", 21.67778, 108.64083)],
  }),
  port("USNYC", "New York/New Jersey", "US", 40.685, -74.15, "America/New_York", "north-america", {
    rank: 24,
    aliases: ["USEWR"],
    terminals: [
      t("APMT", "APM TERMINALS ELIZABETH", 40.66, -74.14889),
      t("MAHER", "MAHER CONTAINER TERMINAL", 40.68306, -74.15389),
      t("PNCT", "PORT NEWARK CONTAINER TERMINAL", 40.68417, -74.15056),
      t("NYCT", "GCT NEW YORK", 40.64083, -74.18917),
    ],
  }),
  port("INMUN", "Mundra", "IN", 22.74, 69.7, "Asia/Kolkata", "south-asia", {
    rank: 25,
    terminals: [
      t("AICTPL", "ADANI INTERNATIONAL CONTAINER TERMINAL (AICTPL)", 22.73889, 69.69611),
      t("MICT", "MUNDRA INTERNATIONAL CONTAINER TERMINAL (MICT)", 22.74333, 69.71222),
      t("ACMTPL", "ADANI CMA MUNDRA CONTAINER TERMINAL (ACMTPL)", 22.73889, 69.68583),
    ],
  }),
  port("DEHAM", "Hamburg", "DE", 53.53, 9.93, "Europe/Berlin", "europe", {
    rank: 26,
    terminals: [
      t("CTB", "HHLA CONTAINER TERMINAL BURCHARDKAI (CTB)", 53.53611, 9.91556),
      t("CTA", "HHLA CONTAINER TERMINAL ALTENWERDER (CTA)", 53.50083, 9.93639),
      t("EGH", "EUROGATE CONTAINER TERMINAL HAMBURG", 53.52917, 9.91472),
    ],
  }),
  port("LKCMB", "Colombo", "LK", 6.95, 79.84, "Asia/Colombo", "south-asia", {
    rank: 27,
    terminals: [
      t("CICT", "COLOMBO INTL CONTAINER TERMINAL (CICT)", 6.94556, 79.83278),
      t("SAGT", "SOUTH ASIA GATEWAY TERMINALS (SAGT)", 6.94667, 79.84556),
    ],
  }),
  port("IDJKT", "Jakarta (Tanjung Priok)", "ID", -6.1, 106.89, "Asia/Jakarta", "southeast-asia", {
    rank: 28,
    aliases: ["IDTPP"],
    terminals: [
      t("UTC1", "JAKARTA INTERNATIONAL CONTAINER TERMINAL (UTC1)", -6.09778, 106.89306),
      t("NPCT1", "NEW PRIOK CONTAINER TERMINAL ONE", -6.09417, 106.92),
    ],
  }),
  port("VNHPH", "Hai Phong", "VN", 20.85, 106.77, "Asia/Ho_Chi_Minh", "southeast-asia", {
    rank: 29,
    terminals: [
      t("VNCHL", "HAI PHONG INTERNATIONAL CONTAINER TERMINAL (TC-HICT)", 20.79917, 106.9075),
      t("NP128", "HAI PHONG TAN CANG 128", 20.855, 106.73972),
    ],
  }),
  port("VNCMT", "Cai Mep-Thi Vai", "VN", 10.52, 107.02, "Asia/Ho_Chi_Minh", "southeast-asia", {
    rank: 30,
    aliases: ["VNVUT"],
    terminals: [
      t("CMIT", "CAI MEP INTERNATIONAL TERMINAL (CMIT)", 10.51472, 107.01306),
      t("TCIT", "TAN CANG - CAI MEP INTERNATIONAL TERMINAL (TCIT)", 10.53833, 107.02889),
      t("GML", "GEMALINK INTERNATIONAL PORT (GML)", 10.49778, 107.00139),
    ],
  }),
  port("INNSA", "Jawaharlal Nehru Port (Nhava Sheva)", "IN", 18.95, 72.95, "Asia/Kolkata", "south-asia", {
    rank: 31,
    terminals: [
      t("NSICT", "NHAVA SHEVA INTERNATIONAL CONTAINER TERMINAL (NSICT)", 18.95833, 72.94833),
      t("GTICI", "GATEWAY TERMINALS INDIA (GTI)", 18.94833, 72.94139),
      t("BMCT", "BHARAT MUMBAI CONTAINER TERMINALS", 18.93333, 72.93333),
    ],
  }),
  // SMDG's only Rizhao entry carries the placeholder code XXXXX, so none is given.
  port("CNRZH", "Rizhao", "CN", 35.38, 119.55, "Asia/Shanghai", "east-asia", { rank: 32 }),
  port("CNLYG", "Lianyungang", "CN", 34.75, 119.44, "Asia/Shanghai", "east-asia", {
    rank: 33,
    terminals: [t("LPCT", "LYG-PSA CONTAINER TERMINAL", 34.74778, 119.43667)],
  }),
  port("PHMNL", "Manila", "PH", 14.61, 120.96, "Asia/Manila", "southeast-asia", {
    rank: 34,
    terminals: [t("MIC", "MANILA INTERNATIONAL CONTAINER TERMINAL (MICT)", 14.60111, 120.95444)],
  }),
  port("USSAV", "Savannah", "US", 32.13, -81.14, "America/New_York", "north-america", {
    rank: 35,
    terminals: [t("GCMT", "GARDEN CITY MARINE TERMINAL", 32.12833, -81.14)],
  }),
  port("ESVLC", "Valencia", "ES", 39.44, -0.32, "Europe/Madrid", "europe", {
    rank: 36,
    terminals: [
      t("MSCVC", "MSC TERMINAL VALENCIA", 39.43889, -0.32361),
      t("TCV", "APM TERMINALS VALENCIA (TCV)", 39.45222, -0.31861),
      t("NOATV", "CSP IBERIAN VALENCIA TERMINAL", 39.4325, -0.32389),
    ],
  }),
  port("CNYIK", "Yingkou (Bayuquan)", "CN", 40.28, 122.08, "Asia/Shanghai", "east-asia", {
    rank: 37,
    terminals: [t("BQCT", "YINGKOU BAYUQUAN CONTAINER TERMINAL", 40.26889, 122.09528)],
  }),
  port("BRSSZ", "Santos", "BR", -23.95, -46.31, "America/Sao_Paulo", "south-america", {
    rank: 38,
    terminals: [
      t("BTP", "BRASIL TERMINAL PORTUARIO (BTP)", -23.92194, -46.35278),
      t("SSA", "SANTOS BRASIL SA", -23.9625, -46.29333),
      t("EMBRA", "DP WORLD SANTOS", -23.92472, -46.31722),
    ],
  }),
  port("SAJED", "Jeddah", "SA", 21.46, 39.15, "Asia/Riyadh", "middle-east", {
    rank: 39,
    terminals: [
      t("RSGT", "RED SEA GATEWAY TERMINAL (RSGT)", 21.48444, 39.15472),
      t("DPW", "DP WORLD SOUTH CONTAINER TERMINAL JEDDAH (SCT)", 21.45472, 39.15833),
    ],
  }),
  port("CNDLC", "Dalian (Dayaowan)", "CN", 39.05, 121.89, "Asia/Shanghai", "east-asia", {
    rank: 40,
    aliases: ["CNDAL", "CNDAG"],
    terminals: [t("DPCT", "DALIAN CONTAINER TERMINAL", 39.00889, 121.87361)],
  }),
  port("AEKHL", "Khalifa Port (Abu Dhabi)", "AE", 24.81, 54.65, "Asia/Dubai", "middle-east", {
    rank: 41,
    aliases: ["AEAUH"],
    terminals: [
      t("ADT", "KHALIFA PORT CONTAINER TERMINAL", 24.8075, 54.64944),
      t("CSP", "CSP ABU DHABI TERMINAL", 24.81694, 54.66222),
      t("CMAT", "CMA TERMINALS KHALIFA PORT", 24.82917, 54.65861),
    ],
  }),
  port(
    "PAMIT",
    "Colón (Manzanillo International Terminal)",
    "PA",
    9.36,
    -79.89,
    "America/Panama",
    "central-america",
    {
      rank: 42,
      aliases: ["PAONX"],
      terminals: [t("MIT", "MANZANILLO INTERNATIONAL TERMINAL (MIT)", 9.36083, -79.88333)],
    },
  ),
  port("GRPIR", "Piraeus", "GR", 37.95, 23.58, "Europe/Athens", "europe", {
    rank: 43,
    terminals: [t("GRPCT", "PIRAEUS CONTAINER TERMINAL", 37.95861, 23.58639)],
  }),
  port("CNYNT", "Yantai", "CN", 37.56, 121.39, "Asia/Shanghai", "east-asia", {
    rank: 44,
    aliases: ["CNYAT", "CNYTG"],
    terminals: [t("YPCT", "YANTAI PORT INTERNATIONAL CONTAINER TERMINAL", 37.58083, 121.37778)],
  }),
  port("ESALG", "Algeciras", "ES", 36.14, -5.43, "Europe/Madrid", "europe", {
    rank: 45,
    terminals: [
      t("APM", "APM TERMINALS ALGECIRAS", 36.14139, -5.43611),
      t("TTI", "TOTAL TERMINAL INTERNATIONAL ALGECIRAS", 36.12972, -5.42278),
    ],
  }),
  port("DEBRV", "Bremerhaven", "DE", 53.58, 8.53, "Europe/Berlin", "europe", {
    rank: 46,
    terminals: [
      t("NTB", "NORTH SEA TERMINAL BREMERHAVEN (NTB)", 53.59722, 8.5175),
      t("MSCBH", "MSC GATE BREMERHAVEN", 53.57389, 8.54028),
      t("EGB", "EUROGATE CONTAINER TERMINAL BREMERHAVEN", 53.58611, 8.52917),
    ],
  }),
  port("OMSLL", "Salalah", "OM", 16.94, 54.0, "Asia/Muscat", "middle-east", {
    rank: 47,
    terminals: [t("APMT", "APM TERMINALS SALALAH", 16.94139, 53.99528)],
  }),
  port("JPTYO", "Tokyo", "JP", 35.6, 139.77, "Asia/Tokyo", "east-asia", {
    rank: 48,
    terminals: [
      t("OHK", "OHI CONTAINER TERMINAL BERTH NO. 1/2", 35.61167, 139.76278),
      t("OHN", "OHI CONTAINER TERMINAL BERTH NO. 6/7", 35.59806, 139.77111),
      t("AOE", "AOMI CONTAINER TERMINAL BERTH NO. 4", 35.6125, 139.77833),
    ],
  }),
  port("USHOU", "Houston", "US", 29.68, -95.0, "America/Chicago", "north-america", {
    rank: 49,
    terminals: [
      t("BPTM", "BAYPORT TERMINAL", 29.61222, -95.005),
      t("BCMT", "BARBOURS CUT MARINE TERMINAL", 29.68, -94.99833),
    ],
  }),
  port("ITGIT", "Gioia Tauro", "IT", 38.45, 15.9, "Europe/Rome", "europe", {
    rank: 50,
    terminals: [t("MCT", "MCT MEDCENTER CONTAINER TERMINAL", 38.45972, 15.91056)],
  }),
  port("CNFOC", "Fuzhou (Jiangyin)", "CN", 25.46, 119.45, "Asia/Shanghai", "east-asia", {
    rank: 51,
    aliases: ["CNFZH"],
    terminals: [t("FICT", "FUZHOU INTERNATIONAL CONTAINER TERMINAL", 25.41667, 119.28583)],
  }),
  port("IDSUB", "Surabaya (Tanjung Perak)", "ID", -7.2, 112.73, "Asia/Jakarta", "southeast-asia", {
    rank: 52,
    terminals: [t("TPS", "TERMINAL PETIKEMAS SURABAYA (TPS)", -7.19778, 112.71028)],
  }),
  port("ESBCN", "Barcelona", "ES", 41.34, 2.16, "Europe/Madrid", "europe", {
    rank: 53,
    terminals: [
      t("BEST", "BARCELONA EUROPE SOUTH TERMINAL (BEST)", 41.30972, 2.14833),
      t("TCB", "CONTAINER TERMINAL BARCELONA (TCB)", 41.3525, 2.16972),
    ],
  }),
  port("MXZLO", "Manzanillo", "MX", 19.07, -104.29, "America/Mexico_City", "central-america", {
    rank: 54,
    terminals: [
      t("CMSA", "CONTECON MANZANILLO", 19.08472, -104.3025),
      t("SSAMX", "SSA MEXICO HOLDINGS", 19.07222, -104.29083),
      t("TIMSA", "TERMINAL INTL DE MANZANILLO (TIMSA)", 19.06028, -104.29306),
    ],
  }),
  port("GBFXT", "Felixstowe", "GB", 51.955, 1.31, "Europe/London", "europe", {
    rank: 55,
    terminals: [
      t("TTY", "TRINITY TERMINAL", 51.96056, 1.29667),
      t("LNG", "LANDGUARD TERMINAL (BERTHS 8&9)", 51.94778, 1.31472),
    ],
  }),
  port("EGPSE", "Port Said East", "EG", 31.22, 32.35, "Africa/Cairo", "north-africa", {
    rank: 56,
    aliases: ["EGPSD"],
    terminals: [t("SCCT", "SUEZ CANAL CONTAINER TERMINAL (SCCT)", 31.21167, 32.35694)],
  }),
  port("COCTG", "Cartagena", "CO", 10.39, -75.53, "America/Bogota", "south-america", {
    rank: 57,
    terminals: [
      t("TCC", "TERMINAL DE CONTENEDORES DE CARTAGENA (CONTECAR)", 10.37639, -75.51),
      t("SPRC", "SOCIEDAD PORTUARIA REGIONAL DE CARTAGENA (SPRC)", 10.40583, -75.53417),
    ],
  }),
  port("KRINC", "Incheon", "KR", 37.34, 126.62, "Asia/Seoul", "east-asia", {
    rank: 58,
    terminals: [
      t("HJITC", "HANJIN INCHEON CONTAINER TERMINAL (HJIT)", 37.34222, 126.62722),
      t("SNCTC", "SUNKWANG NEWPORT CONTAINER TERMINAL (SNCT)", 37.34222, 126.63639),
    ],
  }),
  port("PABLB", "Balboa", "PA", 8.95, -79.57, "America/Panama", "central-america", {
    rank: 59,
    terminals: [t("PPCBL", "PPC CONTAINER TERMINAL BALBOA", 8.96, -79.56667)],
  }),
  port("CAVAN", "Vancouver", "CA", 49.01, -123.16, "America/Vancouver", "north-america", {
    rank: 60,
    terminals: [
      t("DLT", "GCT DELTAPORT", 49.02056, -123.15139),
      t("CTM", "CENTENNIAL TERMINAL (CENTERM)", 49.28889, -123.09583),
      t("VTM", "GCT VANTERM", 49.28861, -123.07389),
    ],
  }),

  // Ports of the services.ts rotations outside the top 60, placed at their main terminal.
  port("CNSHK", "Shenzhen (Shekou)", "CN", 22.45361, 113.89222, "Asia/Shanghai", "east-asia", {
    aliases: ["CNCWN"],
    terminals: [
      t("SCT", "SHEKOU CONTAINER TERMINAL (SCT)", 22.45361, 113.89222),
      t("CCT", "CHIWAN CONTAINER TERMINAL (CCT)", 22.46667, 113.87583),
      t("MCT", "MAWAN CONTAINER TERMINAL (MCT)", 22.48806, 113.86722),
    ],
  }),
  port("PTSIE", "Sines", "PT", 37.93306, -8.84667, "Europe/Lisbon", "europe", {
    terminals: [t("SCT", "SINES CONTAINER TERMINAL", 37.93306, -8.84667)],
  }),
  port("FRLEH", "Le Havre", "FR", 49.46111, 0.14472, "Europe/Paris", "europe", {
    terminals: [
      t("TMS", "TERMINAUX DE NORMANDIE (TNMSC/TPO)", 49.46111, 0.14472),
      t("TDF", "TERMINAL DE FRANCE (GMP)", 49.4575, 0.17),
    ],
  }),
  port("SEGOT", "Gothenburg", "SE", 57.68861, 11.85611, "Europe/Stockholm", "europe", {
    terminals: [t("CT1", "APM TERMINALS GOTHENBURG", 57.68861, 11.85611)],
  }),
  port("DKAAR", "Aarhus", "DK", 56.15417, 10.24139, "Europe/Copenhagen", "europe", {
    terminals: [t("APMT", "APM TERMINALS AARHUS", 56.15417, 10.24139)],
  }),
  port("FRDKK", "Dunkirk", "FR", 51.01444, 2.18361, "Europe/Paris", "europe", {
    terminals: [t("TDF", "TERMINAL DES FLANDRES", 51.01444, 2.18361)],
  }),
  port("BEZEE", "Zeebrugge", "BE", 51.3475, 3.18889, "Europe/Brussels", "europe", {
    terminals: [
      t("CSPZ", "CSP ZEEBRUGGE TERMINAL", 51.3475, 3.18889),
      t("PSAZ", "PSA ZEEBRUGGE TERMINAL", 51.35472, 3.18),
    ],
  }),
  port("GBSOU", "Southampton", "GB", 50.90722, -1.45722, "Europe/London", "europe", {
    terminals: [t("DPWS", "DP WORLD SOUTHAMPTON", 50.90722, -1.45722)],
  }),
  port("GBLGP", "London Gateway", "GB", 51.50722, 0.48333, "Europe/London", "europe", {
    terminals: [t("DPWLG", "LONDON GATEWAY", 51.50722, 0.48333)],
  }),
  port("AEKLF", "Khor Fakkan", "AE", 25.37833, 56.37528, "Asia/Dubai", "middle-east", {
    terminals: [t("KCTKLF", "KHORFAKKAN CONTAINER TERMINAL", 25.37833, 56.37528)],
  }),
  port("EGAKI", "Abu Qir", "EG", 31.3125, 30.07778, "Africa/Cairo", "north-africa", {
    terminals: [t("AQCT", "HUTCHISON ABUQIR", 31.3125, 30.07778)],
  }),
  port("ITGOA", "Genoa", "IT", 44.42111, 8.78528, "Europe/Rome", "europe", {
    terminals: [
      t("VTE", "VOLTRI TERMINAL EUROPA - PORTO DI PRA", 44.42111, 8.78528),
      t("SECH", "SECH TERMINAL", 44.40444, 8.91472),
    ],
  }),
  port("ITSPE", "La Spezia", "IT", 44.10833, 9.84556, "Europe/Rome", "europe", {
    terminals: [t("LSCT", "LA SPEZIA CONTAINER TERMINAL (LSCT)", 44.10833, 9.84556)],
  }),
  port("FRFOS", "Fos-sur-Mer", "FR", 43.41972, 4.83, "Europe/Paris", "europe", {
    terminals: [t("SEYA", "SEAYARD", 43.41972, 4.83), t("EURFO", "EUROFOS", 43.40667, 4.85028)],
  }),
  port("CIABJ", "Abidjan", "CI", 5.27361, -4.01333, "Africa/Abidjan", "west-africa", {
    terminals: [
      t("SETV1", "VRIDI TERMINAL ABIDJAN", 5.27361, -4.01333),
      t("CIT", "COTE D'IVOIRE TERMINAL", 5.28111, -4.01722),
    ],
  }),
  port("TGLFW", "Lomé", "TG", 6.13722, 1.27389, "Africa/Lome", "west-africa", {
    terminals: [t("LCT", "LOME CONTAINER TERMINAL (LCT)", 6.13722, 1.27389)],
  }),
  port("USOAK", "Oakland", "US", 37.79639, -122.31417, "America/Los_Angeles", "north-america", {
    terminals: [
      t("B58", "OAKLAND INTERNATIONAL CONTAINER TERMINAL (OICT)", 37.79639, -122.31417),
      t("TPOAK", "TRAPAC CONTAINER TERMINAL", 37.81, -122.32306),
    ],
  }),
  port("DOCAU", "Caucedo", "DO", 18.42333, -69.63056, "America/Santo_Domingo", "central-america", {
    terminals: [t("DPCAU", "DP WORLD CAUCEDO", 18.42333, -69.63056)],
  }),
  port("PACTB", "Colón (Cristóbal)", "PA", 9.35417, -79.90889, "America/Panama", "central-america", {
    terminals: [t("PCPPC", "PPC CONTAINER TERMINAL CRISTOBAL", 9.35417, -79.90889)],
  }),
  port("PAROD", "Rodman", "PA", 8.95806, -79.57556, "America/Panama", "central-america", {
    terminals: [t("PPIT", "PSA PANAMA INTERNATIONAL TERMINAL (PPIT)", 8.95806, -79.57556)],
  }),
  port("USCHS", "Charleston", "US", 32.83333, -79.89083, "America/New_York", "north-america", {
    terminals: [
      t("WWMT", "WANDO WELCH MARINE TERMINAL", 32.83333, -79.89083),
      t("HLT", "HUGH K. LEATHERMAN TERMINAL (HLT)", 32.84, -79.93611),
    ],
  }),
  port("USBAL", "Baltimore", "US", 39.255, -76.54667, "America/New_York", "north-america", {
    terminals: [t("SMT", "SEAGIRT MARINE TERMINAL", 39.255, -76.54667)],
  }),
  port("USJAX", "Jacksonville", "US", 30.39667, -81.56806, "America/New_York", "north-america", {
    terminals: [t("DPJL", "DAMES POINT MARINE TERMINAL", 30.39667, -81.56806)],
  }),
  port("USPHL", "Philadelphia", "US", 39.90167, -75.135, "America/New_York", "north-america", {
    terminals: [t("PAMT", "PACKER AVENUE MARINE TERMINAL", 39.90167, -75.135)],
  }),
  port("CASJB", "Saint John", "CA", 45.26528, -66.06722, "America/Moncton", "north-america", {
    terminals: [t("DPWSJB", "DP WORLD SAINT JOHN", 45.26528, -66.06722)],
  }),
  port("DEWVN", "Wilhelmshaven", "DE", 53.59389, 8.15111, "Europe/Berlin", "europe", {
    terminals: [t("EGW", "EUROGATE CONTAINER TERMINAL WILHELMSHAVEN", 53.59389, 8.15111)],
  }),
  port("MXVER", "Veracruz", "MX", 19.23583, -96.16972, "America/Mexico_City", "central-america", {
    terminals: [t("ICAVE", "HUTCHISON ICAVE VERACRUZ", 19.23583, -96.16972)],
  }),
  port("USMSY", "New Orleans", "US", 29.9125, -90.11056, "America/Chicago", "north-america", {
    terminals: [t("NOLA", "NAPOLEON CONTAINER TERMINAL", 29.9125, -90.11056)],
  }),
  port("BSFPO", "Freeport", "BS", 26.53056, -78.76444, "America/Nassau", "central-america", {
    terminals: [t("FCP", "FREEPORT CONTAINER PORT", 26.53056, -78.76444)],
  }),
  port("JPSMZ", "Shimizu", "JP", 35.04083, 138.52056, "Asia/Tokyo", "east-asia", {
    terminals: [
      t("OKT", "SHIMIZU SHIN-OKITSU CONTAINER TERMINAL", 35.04083, 138.52056),
      t("SDE", "SHIMIZU SODESHI CONTAINER TERMINAL", 35.03722, 138.50722),
    ],
  }),
  port("JPOSA", "Osaka", "JP", 34.6525, 135.40306, "Asia/Tokyo", "east-asia", {
    terminals: [t("OC10", "YUMESHIMA CONTAINER TERMINAL C-10", 34.6525, 135.40306)],
  }),
  port("JPUKB", "Kobe", "JP", 34.66056, 135.23861, "Asia/Tokyo", "east-asia", {
    terminals: [
      t("KICT", "KICT PORT ISLAND (PC-14/15/16/17)", 34.66056, 135.23861),
      t("RC6", "ROKKO ISLAND RC-6/7", 34.68139, 135.28472),
    ],
  }),
  port("JPHKT", "Hakata", "JP", 33.65833, 130.40556, "Asia/Tokyo", "east-asia", {
    terminals: [t("HIC", "HAKATA ISLAND CITY CONTAINER TERMINAL", 33.65833, 130.40556)],
  }),
  port("QAHMD", "Hamad", "QA", 25.02444, 51.60361, "Asia/Qatar", "middle-east", {
    terminals: [t("HCT", "HAMAD CONTAINER TERMINAL (HCT)", 25.02444, 51.60361)],
  }),
  port("IQUQR", "Umm Qasr", "IQ", 30.06278, 47.93333, "Asia/Baghdad", "middle-east", {
    terminals: [t("BGTE", "BASRA GATEWAY TERMINAL EAST", 30.06278, 47.93333)],
  }),
  port("SADMM", "Dammam", "SA", 26.505, 50.19694, "Asia/Riyadh", "middle-east", {
    terminals: [
      t("FCT", "DAMMAM FIRST CONTAINER TERMINAL (FCT)", 26.505, 50.19694),
      t("SCT", "DAMMAM SECOND CONTAINER TERMINAL (SCT)", 26.50667, 50.19167),
    ],
  }),
  port("BRSPB", "Itaguaí (Sepetiba)", "BR", -22.93056, -43.83833, "America/Sao_Paulo", "south-america", {
    terminals: [t("TECSE", "SEPETIBA TECON SA", -22.93056, -43.83833)],
  }),
  port("BRIOA", "Itapoá", "BR", -26.18222, -48.60528, "America/Sao_Paulo", "south-america", {
    terminals: [t("ITP", "ITAPOA TERMINAIS PORTUARIOS S/A", -26.18222, -48.60528)],
  }),
  port("BRITJ", "Itajaí", "BR", -26.90139, -48.66444, "America/Sao_Paulo", "south-america", {
    terminals: [t("JBST", "JBS TERMINAIS ITAJAI", -26.90139, -48.66444)],
  }),
  port("BRPNG", "Paranaguá", "BR", -25.50278, -48.50194, "America/Sao_Paulo", "south-america", {
    terminals: [t("TCP", "TCP DE CONTEINERES DE PARANAGUA SA", -25.50278, -48.50194)],
  }),
  port(
    "ARBUE",
    "Buenos Aires",
    "AR",
    -34.58028,
    -58.36806,
    "America/Argentina/Buenos_Aires",
    "south-america",
    {
      terminals: [
        t("TERM4", "APM TERMINALS BUENOS AIRES T4", -34.58028, -58.36806),
        t("EXOL", "EXOLGAN CONTAINER TERMINAL BUENOS AIRES", -34.64, -58.34667),
      ],
    },
  ),
  port("UYMVD", "Montevideo", "UY", -34.90528, -56.22028, "America/Montevideo", "south-america", {
    terminals: [t("TCDP", "TERMINAL CUENCA DEL PLATA", -34.90528, -56.22028)],
  }),
  port("PTLIS", "Lisbon", "PT", 38.69917, -9.16861, "Europe/Lisbon", "europe", {
    terminals: [t("LISC", "LISCONT CONTAINER TERMINAL", 38.69917, -9.16861)],
  }),
  port("GHTEM", "Tema", "GH", 5.61417, -0.01167, "Africa/Accra", "west-africa", {
    terminals: [t("MPS3", "TEMA PORT TERMINAL 3 (MPS)", 5.61417, -0.01167)],
  }),
  port("CGPNR", "Pointe-Noire", "CG", -4.77806, 11.82806, "Africa/Brazzaville", "west-africa", {
    terminals: [t("CTPN", "CONGO TERMINAL POINTE NOIRE", -4.77806, 11.82806)],
  }),
  port("AOLAD", "Luanda", "AO", -8.79972, 13.25194, "Africa/Luanda", "west-africa", {
    terminals: [t("BOA", "BOAVISTA TERMINAL", -8.79972, 13.25194)],
  }),
  port("GALBV", "Libreville (Owendo)", "GA", 0.28444, 9.50639, "Africa/Libreville", "west-africa", {
    terminals: [t("OCT", "OWENDO CONTAINER TERMINAL", 0.28444, 9.50639)],
  }),
  port("SNDKR", "Dakar", "SN", 14.68722, -17.42694, "Africa/Dakar", "west-africa", {
    terminals: [t("DPWSN", "DP WORLD DAKAR", 14.68722, -17.42694)],
  }),
  port("NGAPP", "Lagos (Apapa)", "NG", 6.43583, 3.38833, "Africa/Lagos", "west-africa", {
    terminals: [t("APMTER", "APM TERMINALS APAPA", 6.43583, 3.38833)],
  }),
  port("NGTIN", "Lagos (Tin Can Island)", "NG", 6.4325, 3.3525, "Africa/Lagos", "west-africa", {
    terminals: [t("TICT", "TIN CAN ISLAND CONTAINER TERMINAL TICT (TERMINAL B)", 6.4325, 3.3525)],
  }),
  port("BJCOO", "Cotonou", "BJ", 6.34667, 2.41889, "Africa/Porto-Novo", "west-africa", {
    terminals: [t("BTER", "BENIN TERMINAL", 6.34667, 2.41889)],
  }),
  port("AUBNE", "Brisbane", "AU", -27.37306, 153.17056, "Australia/Brisbane", "oceania", {
    terminals: [
      t("DPBNE", "DP WORLD BRISBANE FISHERMAN ISLANDS", -27.37306, 153.17056),
      t("PTFIT", "PATRICK BRISBANE AUTOSTRAD TERMINAL", -27.36611, 153.17583),
    ],
  }),
  port("AUMEL", "Melbourne", "AU", -37.84694, 144.91083, "Australia/Melbourne", "oceania", {
    terminals: [
      t("VICTM", "VICT WEBB DOCK EAST", -37.84694, 144.91083),
      t("CONWS", "DP WORLD WEST SWANSON DOCK TERMINAL", -37.81389, 144.91194),
    ],
  }),
  port("AUSYD", "Sydney", "AU", -33.97083, 151.21639, "Australia/Sydney", "oceania", {
    terminals: [
      t("CTLPB", "DP WORLD SYDNEY", -33.97083, 151.21639),
      t("HPAPB", "HUTCHISON SYDNEY INTERNATIONAL CONTAINER TERMINAL (SICTL)", -33.96361, 151.20056),
      t("ASLPB", "PATRICK SYDNEY AUTOSTRAD TERMINAL", -33.96889, 151.21056),
    ],
  }),
];

const portsByCode: ReadonlyMap<string, Port> = new Map(
  PORTS.flatMap((p) => [[p.unLocode, p] as const, ...p.aliases.map((alias) => [alias, p] as const)]),
);

/** Finds a port by its carrier code or an alias (CNSGH finds Shanghai). */
export function findPort(code: string): Port | undefined {
  return portsByCode.get(code.trim().toUpperCase());
}

export function portByCode(code: string): Port {
  const found = findPort(code);
  if (!found) throw new Error(`No port ${code} in the simulated world`);
  return found;
}

/**
 * Days an import box waits at the terminal before it is gated out, by region: efficient gateways
 * 2.5-3.2 (PMSA's Los Angeles/Long Beach dwell reports), Europe and Asia 3-4, Sub-Saharan Africa 10-20
 * (World Bank, Raballand et al. 2012, "Why Does Cargo Spend Weeks in Sub-Saharan African Ports?").
 * Regions without a published figure use the European and Asian norm.
 */
export const IMPORT_DWELL_DAYS: Readonly<Record<Region, readonly [number, number]>> = {
  "east-asia": [2, 4],
  "southeast-asia": [2, 5],
  "south-asia": [3, 6],
  "middle-east": [3, 6],
  europe: [3, 7],
  "north-africa": [3, 7],
  "west-africa": [10, 20],
  "north-america": [2, 5],
  "central-america": [3, 6],
  "south-america": [3, 7],
  oceania: [2, 5],
};
