/**
 * Whether an item reports an operational effect on shipping, the gate before classification (issue
 * 35): names alone never make a disruption. A port's name in a football report, a carrier's name in a
 * company's results, "strikes a deal", "a perfect storm", an opinion column about last year's crisis
 * or the anniversary of an old one all carry the words keyword rules count, and none moved a box.
 *
 * Three deterministic, offline steps over the folded text:
 * 1. figures of speech are masked ("strikes a deal", "perfect storm", "weather the storm", "took the
 *    city by storm", "stocks storm higher"), so neither the gate nor the classifier counts them;
 * 2. frames that report no current effect are refused whatever words they hold: commentary (a title
 *    that opens with "Opinion:", "Comment:", "Podcast:"...), retrospectives and anniversaries ("one year
 *    on", "ten years since", "anniversary", "looks back", a book that retells one), fiction (a game's
 *    or a film's blockades), passenger cruising, a city council's affairs, a company's or a market's
 *    figures, sports reports (a sports word and no shipping word);
 * 3. what is left must name an effect (a closure, a halt, a strike, a delay, a diversion, an attack, a
 *    tariff, a rule taking effect, a rate moving, a network change, a reopening) and anchor it to
 *    shipping (a shipping word, or a port, chokepoint or carrier named; for a tariff, duty or quota,
 *    a country named: trade rules move goods between countries).
 */

function words(list: readonly string[]): RegExp {
  const sorted = [...list]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${sorted.join("|")})(?![\\p{L}\\p{N}])`, "u");
}

/**
 * Figures of speech with a strike or a storm in them, and rates of other trades: masked before any
 * rule reads the text.
 */
const METAPHORS: readonly RegExp[] = [
  /\b(?:strikes?|struck|striking) (?:an? |the )?(?:\w+ ){0,2}(?:deal|deals|agreement|accord|pact|partnership|balance|chord|note|tone|gold|bargain|compromise)\b/g,
  /\b(?:strikes?|struck) (?:back|out|lucky)\b/g,
  /\blucky strike\b/g,
  /\bperfect storm\b/g,
  /\bstorms? of (?:criticism|protest|protests|controversy|outrage|anger|complaints|applause|orders|demand)\b/g,
  /\b(?:weathers?|weathered|weathering|ride out|rides out|rode out) (?:the|a|this|that) (?:\w+ )?storm\b/g,
  /\b(?:takes?|took|taken|taking) (?:\w+ ){0,3}by storm\b/g,
  /\bstorm(?:s|ed|ing)? (?:higher|ahead|back|to victory|to the top|to a win|into the lead|into)\b/g,
  /\b(?:calm|quiet) before the storm\b/g,
  /\bstorm in a teacup\b/g,
  /\b(?:boardroom|political|legislative|congressional|parliamentary|senate) gridlock\b/g,
  // Issue 35, sixteenth pass: orders that "storm in", a budget or talks that "run aground".
  /\b(?:orders|pre-orders|bookings|buyers|shoppers|fans|crowds|applications) (?:storm|storms|stormed) in\b/g,
  /\b(?:budget|budgets|talks|plan|plans|deal|bill|negotiations|reform|reforms|merger|bid|campaign) (?:runs?|ran|running) aground\b/g,
  // Namesakes of shipping words: a retailer and a tool chain.
  /\b(?:the )?container store\b/g,
  /\bharbor freight(?: tools)?\b/g,
  /\b(?:brainstorm|brainstorms|brainstorming)\b/g,
  // Rates of other trades: a bank's deposit rates are not freight rates.
  /\b(?:interest|deposit|mortgage|exchange|tax|lending|loan|bond|savings|policy|borrowing|inflation|unemployment|birth|crime|approval|occupancy|vacancy) rates?\b/g,
];

/** The folded text with its figures of speech masked (`*`), for the gate and the classifier. */
export function maskFiguresOfSpeech(folded: string): string {
  let text = folded;
  for (const pattern of METAPHORS) text = text.replace(pattern, (m) => "*".repeat(m.length));
  return text;
}

/** A title that opens as commentary rather than a report. */
const COMMENTARY_OPENING =
  /^(?:opinion|comment|commentary|op-ed|editorial|column|podcast|webinar|video|interview|letter|letters|viewpoint|guest post|book review|review|explainer|analysis|in depth|long read|the big picture|panel|debate|q&a|ask the experts?)\s*[:|-]/;

/** A headline that asks rather than reports ("Are five-year charters a bet lines will regret?"). */
const QUESTION_TITLE = /^(?:are|is|will|should|can|could|would|do|does|has|have)\b[^?]*\?$/;

/**
 * An argument rather than a report: a title that asks why or how, over a summary that says someone
 * argues (an op-ed without its label). A news report of a strike says what stopped; it does not argue.
 */
const ARGUED_TITLE = /^(?:why|how|what)\b/;
const ARGUED_SUMMARY = /\b(?:argues|argued|argue|contends|in our view|we believe)\b/;

/**
 * A company's results ("reports record quarterly profit", "first-half earnings fall"): the figures of
 * a business, not an effect on shipping, unless the title itself names one.
 */
const RESULTS =
  /\b(?:profit|profits|earnings|net income|revenue|revenues|results|ebitda|dividend|share price|shares|shareholders?|board of directors|budget|budgets)\b/;

/** A game, a film or a show: a blockade or a raid in it is fiction ("Strategy game adds naval blockades"). */
const FICTION =
  /\b(?:video game|strategy game|board game|game expansion|computer game|movie|box office|tv series|television series|netflix|novel|musical|stage play|opera|ballet|opera season|concert)\b/;

/** A city's own affairs: "Savannah council's budget runs aground over police pay". */
const CIVIC = /\b(?:council|council's|aldermen|city hall|mayor|mayor's|city manager|municipal)\b/;

/** Passenger cruising, not cargo: "Hapag-Lloyd Cruises opens bookings for its polar voyages". */
const CRUISING = /\b(?:cruise|cruises|cruise line|cruise ship|cruise ships|cruising)\b/;
const CARGO = /\b(?:cargo|container|containers|boxes|freight|teu|terminals?|berths?)\b/;

/**
 * A retrospective or an anniversary: an old event recalled, not a new one reported; so is a book or a
 * film that retells one ("New book retells the six days Ever Given blocked the Suez Canal").
 */
const RETROSPECTIVE =
  /\b(?:(?:one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|fifty|a|\d+) (?:years?|decades?) (?:on|after|since|ago|later)|anniversary|anniversaries|remember(?:s|ed|ing)?|commemorat\w*|memorial|looks? back|looking back|in retrospect|retrospective|lessons? (?:of|from) the|(?:new|a) (?:book|documentary|film|memoir)|(?:book|documentary|film|memoir) (?:retells|recounts|revisits|tells|charts|explores)|retells|retold)\b/;

const SPORTS = words([
  // Issue 35, fifteenth pass: cricket, rugby and the finals of other codes.
  "ipl",
  "cricket",
  "wicket",
  "wickets",
  "final over",
  "t20",
  "rugby",
  "grand final",
  "world cup",
  "super bowl",
  "grand prix",
  // Issue 35, sixteenth pass: golf, a rain-stopped match, sailing races.
  "golf",
  "final round",
  "ladies open",
  "halts play",
  "rain stops play",
  "stops play",
  "one-day series",
  "test series",
  "wins her class",
  "wins his class",
  "runners",
  "marathon",
  "half marathon",
  "10 miles",
  "fun run",
  "triathlon",
  "cycle race",
  "derby",
  "goal",
  "goals",
  "striker",
  "strikers",
  "scored",
  "scores",
  "match",
  "matches",
  "league",
  "playoffs",
  "play-offs",
  "playoff",
  "play-off",
  "wnba",
  "nba",
  "nfl",
  "mlb",
  "nhl",
  "serie a",
  "bundesliga",
  "premier league",
  "la liga",
  "champions league",
  "fc",
  "stadium",
  "coach",
  "midfielder",
  "quarterback",
  "touchdown",
  "innings",
  "tournament",
  "cup final",
  "semi-final",
  "title bout",
  "title bouts",
  "fight night",
  "kickoff",
  "fans",
  "season opener",
  "relegated",
  "promoted",
  // Issue 35, third pass: the rest of a match report's words.
  "promotion",
  "shoot-out",
  "penalty shoot-out",
  "equaliser",
  "equalizer",
  "red card",
  "red cards",
  "top flight",
  "title race",
  "hat-trick",
  "win promotion",
  "a draw",
  "away side",
  "home side",
  "the visitors",
  // Issue 35, fourth pass: sailing and other contests.
  "regatta",
  "regattas",
  "yacht race",
  "championship",
  "championships",
  "squad",
]);

/** Words that tie an item to shipping (names of ports, chokepoints and carriers count too). */
const SHIPPING = words([
  "port",
  "ports",
  "seaport",
  "seaports",
  "terminal",
  "terminals",
  "harbour",
  "harbor",
  "ship",
  "ships",
  "shipping",
  "shipments",
  "vessel",
  "vessels",
  "boxship",
  "boxships",
  "containership",
  "container",
  "containers",
  "boxes",
  "cargo",
  "freight",
  "carrier",
  "carriers",
  "dock",
  "docks",
  "dockers",
  "dockworkers",
  "dockworker",
  "longshore",
  "longshoremen",
  "berth",
  "berths",
  "canal",
  "strait",
  "anchorage",
  "tanker",
  "tankers",
  "bulk carrier",
  "barge",
  "barges",
  "maritime",
  "seafarers",
  "sailings",
  "sailing schedules",
  "voyage",
  "voyages",
  "transits",
  "transit",
  "teu",
  "feu",
  "imports",
  "exports",
  "importers",
  "exporters",
  "shippers",
  "goods",
  "trade",
  "lanes",
  "transpacific",
  "asia-europe",
  "liner",
  "lines",
  "navigation",
  "stevedores",
  "crane",
  "cranes",
  "quay",
  "fleet",
  "warship",
  "warships",
  "naval",
  "coast guard",
  "coastguard",
  "mariners",
  "merchant ship",
  "merchant ships",
  // the unions and employers of the docks
  "ilwu",
  "ila",
  "pma",
  "usmx",
  "mua",
  // the container market's own measures
  "spot rates",
  "freight rates",
  "scfi",
  "wci",
  "drewry",
  "xeneta",
]);

/** Issue 35, ninth pass: an unofficial ban in the words of the trade press (trade news and an effect). */
const UNOFFICIAL_BAN = ["import curbs", "curbs on", "stop buying", "stopped buying", "unofficial ban"];

/**
 * Trade rules reach shipping through the goods between the countries they name: a tariff, a duty or
 * a quota on a named country's goods needs no port or shipping word to be trade news.
 */
const TRADE_EFFECT = words([
  "tariff",
  "tariffs",
  "duties",
  "duty on",
  "anti-dumping",
  "countervailing",
  "import ban",
  "export ban",
  "export controls",
  ...UNOFFICIAL_BAN,
  "quota on",
  "quotas on",
  "retaliatory",
  "trade war",
]);

/** An effect on shipping: something closed, stopped, slowed, rerouted, attacked, charged or changed. */
const HARM_WORDS = [
  // closed, stopped
  "closed",
  "closes",
  "closure",
  "closures",
  "shut",
  "shuts",
  "shutdown",
  "halt",
  "halts",
  "halted",
  "halting",
  "suspend",
  "suspends",
  "suspended",
  "suspension",
  "stopped",
  "stops",
  "stoppage",
  "stoppages",
  "idle",
  "idled",
  "blocked",
  "block",
  "blocks",
  "blocking",
  "blockage",
  "aground",
  "grounded",
  "stranded",
  "strands",
  "stuck",
  "refloated",
  "evacuated",
  "out of action",
  "abandon",
  "abandoned",
  "adrift",
  "drifts",
  "drifting",
  "leak",
  "leaks",
  "leaking",
  "slick",
  "burning",
  "killed",
  "jamming",
  // slowed
  "delay",
  "delays",
  "delayed",
  "congestion",
  "congested",
  "queue",
  "queues",
  "backlog",
  "waiting",
  "wait",
  "dwell",
  "pile up",
  "piles up",
  "slow",
  "slows",
  "slowed",
  "disruption",
  "disruptions",
  "disrupted",
  "disrupts",
  "outage",
  "restrict",
  "restricts",
  "restricted",
  "restriction",
  "restrictions",
  "limits",
  "cap",
  "caps",
  "capped",
  "draft",
  "low water",
  "too shallow",
  "shallow",
  "part-loaded",
  "loading lighter",
  "lighter loads",
  "turned back",
  "refused entry",
  // Issue 35, fifteenth pass: sabotage and mines, boxes washed ashore, goods held at customs, a
  // rule waived or tightened, a road to a port jammed.
  "sabotage",
  "sabotaged",
  "mined",
  "limpet mine",
  "limpet mines",
  "washed up",
  "wash up",
  "washed ashore",
  "lost boxes",
  "lost containers",
  "containers lost",
  "boxes lost",
  "in limbo",
  "refuse clearance",
  "refused clearance",
  "waives",
  "waived",
  "waiver",
  "tighten",
  "tightens",
  "tightened",
  "gridlock",
  "toppled",
  "toppled stacks",
  "lockdown",
  "outbreak",
  // rerouted, cancelled
  "divert",
  "diverts",
  "diverted",
  "diverting",
  "diversion",
  "diversions",
  "reroute",
  "reroutes",
  "rerouted",
  "rerouting",
  "bypass",
  "avoid",
  "avoiding",
  "omit",
  "omits",
  "omitted",
  "skip",
  "skips",
  "blank sailing",
  "blank sailings",
  "blanking",
  "cancelled",
  "cancel",
  "cancels",
  // labour
  "strike",
  "strikes",
  "striking",
  "walkout",
  "walkouts",
  "walk out",
  "walked out",
  "lockout",
  "lockouts",
  "locked out",
  "industrial action",
  // Issue 35, ninth pass: the dispute in a carrier's or a port's advisory words.
  "labour action",
  "labor action",
  "labour dispute",
  "labor dispute",
  "go-slow",
  "slowdown",
  "work slowdown",
  "work bans",
  "picket",
  "pickets",
  // attacked
  "attack",
  "attacks",
  "attacked",
  "missile",
  "missiles",
  "drones",
  // Issue 35, fourth pass: a ship hit by a drone boat (a lone "drone" is also a delivery or a survey).
  "drone boat",
  "hit by",
  "struck by",
  "hijack",
  "hijacked",
  "hijacking",
  "seize",
  "seizes",
  "seized",
  "seizure",
  "boarded",
  "piracy",
  "pirates",
  "blockade",
  "explosion",
  "blast",
  "fire",
  "sank",
  "sinks",
  "sinking",
  "sunk",
  "cyberattack",
  "cyber attack",
  "cyber-attack",
  "cyber incident",
  "cybersecurity incident",
  "ransomware",
  "collapse",
  "collapsed",
  "collapses",
  "drills",
  "live-fire",
  "military targets",
  "naval escort",
  "escort",
  "escorts",
  "convoy",
  "convoys",
  // weather that reaches a port
  "typhoon",
  "hurricane",
  "cyclone",
  "tropical storm",
  "storm",
  "storms",
  "gale",
  "fog",
  "flood",
  "floods",
  "flooding",
  "drought",
  "landfall",
  "heavy rain",
  "high winds",
  // charged, ruled
  "tariff",
  "tariffs",
  "duty",
  "duties",
  "quota",
  "quotas",
  "export ban",
  "import ban",
  ...UNOFFICIAL_BAN,
  "anti-dumping",
  "countervailing",
  "sanctions",
  "retaliates",
  "retaliatory",
  "levy",
  "fee",
  "fees",
  "fine",
  "surcharge",
  "surcharges",
  "war-risk",
  "war risk",
  "premiums",
  "force majeure",
  "standstill",
  "damage",
  "damaged",
  "destroyed",
  "wrecked",
  "capsized",
  "collision",
  "collided",
  "spill",
  "evacuate",
  "evacuation",
  "ablaze",
  "detained",
  "detains",
  "arrested",
  "receivership",
  "insolvency",
  "bankruptcy",
  "overboard",
  "power cut",
  "blackout",
  "congested",
  "regulation",
  "regulations",
  "rules",
  "law",
  "into force",
  "takes effect",
  "take effect",
  "applies",
  "apply",
  "mandatory",
  "ban",
  "bans",
  // rates moving
  "rates",
  "spot rates",
  "freight rates",
  "scfi",
  "wci",
  "gri",
  "pss",
  // network changes
  "alliance",
  "vessel sharing",
  "rotation",
  "rotations",
  "port calls",
  "bookings",
];

/** The end of an effect: a reopening, a resumption, a deal. */
const END_WORDS = [
  "reopen",
  "reopens",
  "reopened",
  "resume",
  "resumes",
  "resumed",
  "lifted",
  "lifts",
  "eased",
  "eases",
  "restored",
  "restart",
  "restarts",
  "restarted",
  "restores",
  "released",
  "back to normal",
  "tentative agreement",
  "agreement reached",
  "deal reached",
  "reach agreement",
  "reaches agreement",
  "called off",
  "calls off",
  "return to work",
  "returns to work",
  "back to work",
  "back on the job",
];

const EFFECT = words([...HARM_WORDS, ...END_WORDS]);
const HARM = words(HARM_WORDS);

export type Refusal =
  | "commentary"
  | "retrospective"
  | "fiction"
  | "leisure"
  | "civic"
  | "sports"
  | "results"
  | "no_effect";

/**
 * Why an item is no disruption news although it may hold category words, or null when it reports an
 * operational effect on shipping. `foldedTitle` and `foldedSummary` are masked of figures of speech;
 * `namesShipping` says whether a port, chokepoint or carrier is named, `namesCountry` whether a country is.
 */
export function refusal(
  foldedTitle: string,
  foldedSummary: string,
  namesShipping: boolean,
  namesCountry = false,
): Refusal | null {
  if (COMMENTARY_OPENING.test(foldedTitle)) return "commentary";
  if (ARGUED_TITLE.test(foldedTitle) && ARGUED_SUMMARY.test(foldedSummary)) return "commentary";
  if (QUESTION_TITLE.test(foldedTitle.trim())) return "commentary";
  const text = `${foldedTitle} . ${foldedSummary}`;
  if (RETROSPECTIVE.test(foldedTitle)) return "retrospective";
  if (FICTION.test(foldedTitle)) return "fiction";
  if (CRUISING.test(foldedTitle) && !CARGO.test(text)) return "leisure";
  if (CIVIC.test(foldedTitle) && !SHIPPING.test(foldedTitle)) return "civic";
  const shippingWord = SHIPPING.test(text);
  // A match report's headline is the match, though its summary names the harbour it was sailed off.
  if (SPORTS.test(text) && !shippingWord) return "sports";
  if (SPORTS.test(foldedTitle) && !SHIPPING.test(foldedTitle)) return "sports";
  if (!EFFECT.test(text)) return "no_effect";
  // A company's or a market's figures ("Tokyo shares ride out the storm") are never an open event's
  // report either, though they name its port and its storm.
  if (RESULTS.test(foldedTitle) && !EFFECT.test(foldedTitle)) return "results";
  if (!shippingWord && !namesShipping && !(namesCountry && TRADE_EFFECT.test(text))) return "no_effect";
  return null;
}

/**
 * Whether the title itself reports harm to shipping in shipping's words (a shipping word, not only a
 * name, and an effect that is no end): "West Coast port employers halt weekend vessel loading". Such an
 * item is disruption news even when no category word names its kind; a name and a verb are not
 * ("Evergreen Garden Centres halts expansion plans", "Antwerp diamond trader shuts two shops").
 */
export function titleReportsHarm(foldedTitle: string): boolean {
  return SHIPPING.test(foldedTitle) && HARM.test(foldedTitle);
}
