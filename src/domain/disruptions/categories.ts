/**
 * The nine disruption categories of the v1 contract (section 2.12, rule 10), with what the pipeline
 * needs to know about each: the words that point to it, how long an event of it stays open without
 * news, and how the service-written headline names it.
 */
export const DISRUPTION_CATEGORIES = [
  "port_disruption",
  "chokepoint",
  "carrier_ops",
  "tariff_trade",
  "regulatory",
  "weather",
  "security_geopolitical",
  "container_market",
  "labor",
] as const;
export type DisruptionCategory = (typeof DISRUPTION_CATEGORIES)[number];

export function isDisruptionCategory(value: string): value is DisruptionCategory {
  return (DISRUPTION_CATEGORIES as readonly string[]).includes(value);
}

/**
 * Tie-break order when two categories score the same: the one that moves cargo least predictably
 * first (a missile strike that also mentions freight rates is a security event).
 */
export const CATEGORY_PRECEDENCE: readonly DisruptionCategory[] = [
  "security_geopolitical",
  "chokepoint",
  "labor",
  "weather",
  "port_disruption",
  "carrier_ops",
  "tariff_trade",
  "regulatory",
  "container_market",
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * How long an event of a category stays open without a new report, and how far back an item may
 * join it. Strikes, storms and port closures are over in days; chokepoint and security situations
 * run for months with reports weeks apart. `followMs`: how long after its last report an event can
 * still be followed by a report that keeps its category and names its port or chokepoint (a lockdown
 * reported again after ten quiet days is the same lockdown); an event the silence rule closed is
 * reopened by such a report, one closed by a report of its end is not.
 */
export const CATEGORY_WINDOWS: Readonly<
  Record<DisruptionCategory, { joinMs: number; silenceMs: number; followMs: number }>
> = {
  port_disruption: { joinMs: 72 * HOUR, silenceMs: 3 * DAY, followMs: 30 * DAY },
  chokepoint: { joinMs: 14 * DAY, silenceMs: 21 * DAY, followMs: 21 * DAY },
  carrier_ops: { joinMs: 72 * HOUR, silenceMs: 7 * DAY, followMs: 21 * DAY },
  tariff_trade: { joinMs: 7 * DAY, silenceMs: 14 * DAY, followMs: 45 * DAY },
  regulatory: { joinMs: 7 * DAY, silenceMs: 14 * DAY, followMs: 45 * DAY },
  weather: { joinMs: 72 * HOUR, silenceMs: 3 * DAY, followMs: 10 * DAY },
  security_geopolitical: { joinMs: 14 * DAY, silenceMs: 21 * DAY, followMs: 21 * DAY },
  container_market: { joinMs: 14 * DAY, silenceMs: 14 * DAY, followMs: 45 * DAY },
  labor: { joinMs: 72 * HOUR, silenceMs: 3 * DAY, followMs: 21 * DAY },
};

/** The longest a later report may follow an event (its `followMs`), for loading candidate events. */
export const LONGEST_FOLLOW_MS = Math.max(...Object.values(CATEGORY_WINDOWS).map((w) => w.followMs));

export const CATEGORY_LABELS: Readonly<Record<DisruptionCategory, { label: string; noun: string }>> = {
  port_disruption: { label: "Port disruption", noun: "a port disruption" },
  chokepoint: { label: "Chokepoint", noun: "restrictions at a maritime chokepoint" },
  carrier_ops: { label: "Carrier operations", noun: "changes to carrier services" },
  tariff_trade: { label: "Tariffs and trade", noun: "a change in tariffs or trade rules" },
  regulatory: { label: "Regulation", noun: "a regulatory change" },
  weather: { label: "Weather", noun: "severe weather" },
  security_geopolitical: { label: "Security", noun: "a security incident" },
  container_market: { label: "Container market", noun: "a move in the container market" },
  labor: { label: "Labour", noun: "industrial action" },
};

/**
 * Words and phrases per category, matched whole-word on folded lower-case text (`ceasefire` is not
 * `fire`, `brainstorm` is not `storm`). Title hits weigh twice a summary hit. Kept as data so the
 * lexicon grows without touching the classifier.
 */
export const CATEGORY_LEXICON: Readonly<Record<DisruptionCategory, readonly string[]>> = {
  security_geopolitical: [
    "houthi",
    "houthis",
    "missile",
    "missiles",
    "drone",
    "drones",
    "attack",
    "attacks",
    "attacked",
    "hijack",
    "hijacked",
    "hijacking",
    "seize",
    "seized",
    "seizure",
    "commandos",
    "boarded",
    "navy",
    "navies",
    "naval",
    "seizes",
    "piracy",
    "pirates",
    "war",
    "warship",
    "warships",
    "naval escort",
    "military",
    "blockade",
    "ukmto",
    "mine",
    "usv",
    "armed",
    "militants",
    "sanctions",
  ],
  chokepoint: [
    "transit",
    "transits",
    "diversion",
    "divert",
    "diverted",
    "diverting",
    "reroute",
    "rerouted",
    "rerouting",
    "draft limit",
    "draft restriction",
    "draft restrictions",
    "cape of good hope",
    "refloated",
    "refloat",
    "grounded",
    "aground",
    "booking slots",
    "transit slots",
  ],
  labor: [
    "strike",
    "strikes",
    "striking",
    "walkout",
    "walkouts",
    "industrial action",
    "union",
    "unions",
    "dockworkers",
    "dockworker",
    "longshoremen",
    "longshore",
    "lashers",
    "lashing workers",
    "go-slow",
    "work stoppage",
    "lockout",
    "lockouts",
    "locked out",
    "picket",
    "picket lines",
    "labour dispute",
    "labor dispute",
    "collective agreement",
    "wage",
    "wages",
    "contract talks",
    "binding arbitration",
  ],
  weather: [
    "typhoon",
    "hurricane",
    "cyclone",
    "tropical storm",
    "storm",
    "storms",
    "fog",
    "high winds",
    "gale",
    "swell",
    "flood",
    "flooding",
    "floods",
    "drought",
    "low water",
    "ice",
    "heatwave",
    "landfall",
    "rainfall",
    "winds",
    "heavy rain",
  ],
  port_disruption: [
    "port closed",
    "port closure",
    "closed port",
    "terminal closed",
    "terminal closure",
    "suspended operations",
    "operations suspended",
    "congestion",
    "yard full",
    "berth",
    "berths",
    "crane collapse",
    "fire",
    "power outage",
    "cyberattack",
    "cyber attack",
    "ransomware",
    "malware",
    "bridge collapse",
    "bridge collapses",
    "bridge collapsed",
    "channel closed",
    "shipping channel",
    "gate closure",
    "covid",
    "outbreak",
    "lockdown",
    "yard",
    "yard space",
    "salvage",
    "wreckage",
    // Issue 35, second pass: what another publisher says of a port that stopped.
    "explosion",
    "explosions",
    "blast",
    "force majeure",
    "port operator",
    "terminal operator",
    "closed to vessels",
    "closed to shipping",
    "port condition",
    "manual operations",
    "truck queues",
  ],
  carrier_ops: [
    "blank sailing",
    "blank sailings",
    "suspends service",
    "service suspension",
    "omits call",
    "omit",
    "skip",
    "skips",
    "schedule change",
    "network",
    "alliance",
    "gemini",
    "vessel swap",
    "booking suspension",
    "rotation",
    "service",
    "services",
    "cooperation",
    "vessel sharing",
  ],
  tariff_trade: [
    "tariff",
    "tariffs",
    "duty",
    "duties",
    "section 301",
    "trade war",
    "retaliatory",
    "export ban",
    "quota",
    "anti-dumping",
    "de minimis",
    "import",
    "imports",
    "levy",
  ],
  regulatory: [
    "regulation",
    "regulations",
    "rule",
    "rules",
    "fmc",
    "imo",
    "eu ets",
    "emissions trading",
    "fueleu",
    "ics2",
    "customs requirement",
    "compliance",
    "deadline",
    "directive",
    "filing",
    "carbon",
    "emissions",
  ],
  container_market: [
    "freight rates",
    "freight rate",
    "spot rates",
    "spot rate",
    "scfi",
    "wci",
    "drewry",
    "xeneta",
    "gri",
    "pss",
    "surcharge",
    "surcharges",
    "equipment shortage",
    "capacity",
    "charter rates",
    "orderbook",
    "rates",
    "index",
  ],
};

/**
 * Chokepoint words that say nothing on their own: a diversion away from a closed port is a port
 * disruption. They count for the chokepoint category only when the item names a chokepoint.
 */
export const CHOKEPOINT_CONTEXT_WORDS: readonly string[] = [
  "transit",
  "transits",
  "diversion",
  "divert",
  "diverted",
  "diverting",
  "reroute",
  "rerouted",
  "rerouting",
  "booking slots",
  "transit slots",
];

/**
 * A cyberattack stops whoever's systems it hits: a port's (port disruption, the lexicon's reading) or,
 * where the item names a carrier and no port, the carrier's (carrier operations).
 */
export const CYBER_WORDS: readonly string[] = ["cyberattack", "cyber attack", "ransomware", "malware"];

/** Words that move a lone "strike" from labour to security: a missile strike is not a walkout. */
export const ARMED_STRIKE_CUES: readonly string[] = ["missile", "air", "drone", "airstrike", "military"];
