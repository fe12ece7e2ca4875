/**
 * The world's running news: disruptions that are always going on somewhere, beside the dated episodes
 * of episodes.ts (issue 36). The episodes come a few days per 13-week cycle, so on most days the
 * episode feeds hold no active disruption and a fresh install's `/disruptions` was empty. These stories
 * are what the trade press reports every week: attacks and military drills on the lanes, a hub's
 * systems or yard, an alliance blanking sailings or running late. They run back to back in four
 * families (lanes, hubs, and two of carriers naming different alliances), so at every instant each
 * family has one story going, touching the lanes, hubs and carriers the world's services use (and so
 * the shipments a customer tracks: a carrier story names half the world's carriers).
 *
 * News only: nothing here closes a berth or slows a ship (the AIS world, the congestion benchmark and
 * the disruption corpus are measured on the episodes alone), so no story names an episode's port or
 * canal, and each story is about something the AIS picture does not show (a lane's security, a
 * customs system, a carrier's network). Recurring, seeded by the story's number, deterministic: a pure
 * function of the time. Every item is our own wording; each carries its publisher in RSS 2.0's
 * `<source>`, as a news aggregator's items do, so the service counts publishers, not feeds.
 */
import { unitHash } from "./world/hash";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Stories count from the fleet epoch, as the episodes do. */
const STORY_EPOCH = Date.UTC(2024, 0, 1);

export interface StoryPublisher {
  name: string;
  url: string;
}

/**
 * The trade press the digest gathers (fictional titles, `.example` addresses). Five, taken in turn
 * through a story's reports: with an odd count a publisher never repeats its own headline within a
 * story (the service drops a publisher's near-identical title as a duplicate).
 */
export const STORY_PUBLISHERS: readonly StoryPublisher[] = [
  { name: "Straits Cargo Times", url: "https://straits-cargo-times.example/" },
  { name: "Meridian Shipping Gazette", url: "https://meridian-gazette.example/" },
  { name: "Container Line Monitor", url: "https://container-line-monitor.example/" },
  { name: "Freight Desk Asia", url: "https://freight-desk-asia.example/" },
  { name: "Lanes and Ledgers", url: "https://lanes-and-ledgers.example/" },
];

export interface StoryItem {
  guid: string;
  title: string;
  summary: string;
  publishedAt: number;
  source: StoryPublisher;
}

export interface Story {
  /** Stable id: family and first day, e.g. `lanes-2026-11-20`. */
  id: string;
  family: string;
  /** The subject's key ("red-sea", "SGSIN", "ocean-alliance"). */
  subject: string;
  start: number;
  /** Exclusive: the story's last report (its end) comes just before. */
  end: number;
  items: StoryItem[];
}

interface Text {
  title: string;
  summary: string;
}

/** What the press writes over one story: the first report, updates in turn, then its end. */
interface Script {
  first: Text;
  updates: readonly Text[];
  end: Text;
}

interface Subject {
  key: string;
  script: Script;
}

/** The lanes: security on the sea routes the world's loops sail (chokepoints of the gazetteer). */
const LANES: readonly Subject[] = [
  {
    key: "red-sea",
    script: {
      first: {
        title: "Drone attack on a tanker in the Gulf of Aden keeps container lines on the Cape route",
        summary:
          "Carriers say their Asia-Europe loops will keep sailing around the Cape of Good Hope, adding 10 to 14 days.",
      },
      updates: [
        {
          title: "Container lines extend Cape of Good Hope diversions after new Gulf of Aden attacks",
          summary:
            "Naval escorts remain limited; insurers keep war-risk premiums high for the Bab el-Mandeb.",
        },
        {
          title: "Gulf of Aden attacks: shippers told to plan for longer transits via the Cape of Good Hope",
          summary: "Schedules on Asia-Europe and Asia-Mediterranean loops stay stretched by the diversion.",
        },
      ],
      end: {
        title: "Gulf of Aden war-risk warning lifted after a month without attacks",
        summary: "Carriers say they will review the Cape of Good Hope routing next quarter.",
      },
    },
  },
  {
    key: "taiwan-strait",
    script: {
      first: {
        title: "Military exercises close sea areas in the Taiwan Strait; container ships reroute",
        summary:
          "Navigation warnings cover several zones; feeder and mainline ships take longer tracks east of Taiwan.",
      },
      updates: [
        {
          title: "Taiwan Strait drills extended; carriers warn of delays on China-Southeast Asia sailings",
          summary: "The navigation warnings were renewed for several more days.",
        },
        {
          title: "Ships keep clear of the Taiwan Strait exercise zones as drills continue",
          summary: "Schedule reliability on intra-Asia loops slips as ships reroute.",
        },
      ],
      end: {
        title: "Taiwan Strait exercises end; navigation warnings lifted",
        summary: "Ships return to their usual tracks through the strait.",
      },
    },
  },
  {
    key: "singapore-strait",
    script: {
      first: {
        title: "Pirates armed with knives board two ships in the Singapore Strait",
        summary:
          "The regional piracy centre urges masters to keep watch; naval patrols are stepped up in the eastbound lane.",
      },
      updates: [
        {
          title: "Another piracy boarding in the Singapore Strait; crew unharmed",
          summary: "Armed robbers took engine spares; ships are advised to transit at higher speed.",
        },
        {
          title: "Singapore Strait piracy: navies step up patrols after a series of boardings",
          summary: "Carriers on Asia-Europe and intra-Asia loops brief masters on the threat.",
        },
      ],
      end: {
        title: "Singapore Strait piracy threat lifted after arrests; patrols scaled back",
        summary: "No boarding reported for a week after the arrests.",
      },
    },
  },
];

/** The hubs: the world's big transshipment and gateway ports that no episode touches. */
const HUB_PORTS: readonly { code: string; name: string }[] = [
  { code: "SGSIN", name: "Singapore" },
  { code: "CNYTN", name: "Yantian" },
  { code: "KRPUS", name: "Busan" },
  { code: "MYPKG", name: "Port Klang" },
  { code: "CNSHK", name: "Shekou" },
  { code: "HKHKG", name: "Hong Kong" },
  { code: "LKCMB", name: "Colombo" },
  { code: "AEJEA", name: "Jebel Ali" },
];

function hubScript(port: string, variant: number): Script {
  if (variant === 0)
    return {
      first: {
        title: `Power outage hits the terminal systems at the Port of ${port}; cargo release delayed`,
        summary:
          "Gate appointments and release messages are handled by hand while the terminal operator restores its systems.",
      },
      updates: [
        {
          title: `Port of ${port} terminal systems still down; yard backlog grows`,
          summary: "Truckers report long waits at the gates; import release runs hours behind.",
        },
        {
          title: `Shippers warned of slow cargo release at the Port of ${port} after the outage`,
          summary: "The terminal operator works through the backlog of release messages.",
        },
      ],
      end: {
        title: `Port of ${port} terminal systems restored; operations back to normal`,
        summary: "Gate and release messages run again as usual.",
      },
    };
  return {
    first: {
      title: `Yard congestion at the Port of ${port} as transshipment boxes pile up`,
      summary:
        "The terminal operator asks lines to hold export deliveries while yard space is short after missed connections.",
    },
    updates: [
      {
        title: `Port of ${port} yard congestion persists; export receiving windows cut`,
        summary: "Shippers report rolled boxes and shorter receiving windows.",
      },
      {
        title: `Lines warn of rolled cargo as yard congestion lingers at the Port of ${port}`,
        summary: "Yard utilisation stays above 90 percent, the terminal operator says.",
      },
    ],
    end: {
      title: `Port of ${port} yard congestion cleared; receiving windows back to normal`,
      summary: "Yard utilisation is back under 80 percent.",
    },
  };
}

const HUBS: readonly Subject[] = HUB_PORTS.flatMap((port, i) => [
  { key: port.code, script: hubScript(port.name, i % 2) },
]);

/** The alliances: each names its carriers, so every shipment of them is touched. */
const ALLIANCES: readonly { key: string; name: string; carriers: string; trade: string }[] = [
  {
    key: "gemini",
    name: "Gemini Cooperation",
    carriers: "Maersk and Hapag-Lloyd",
    trade: "Asia-North Europe",
  },
  { key: "ocean", name: "Ocean Alliance", carriers: "CMA CGM, COSCO and Evergreen", trade: "transpacific" },
  {
    key: "premier",
    name: "Premier Alliance",
    carriers: "ONE, HMM and Yang Ming",
    trade: "Asia-Mediterranean",
  },
  { key: "msc", name: "MSC", carriers: "MSC and its slot partner ZIM", trade: "Asia-US East Coast" },
];

function blankSailings(alliance: (typeof ALLIANCES)[number]): Script {
  return {
    first: {
      title: `${alliance.carriers} blank sailings on the ${alliance.trade} trade`,
      summary: `The ${alliance.name} cancels several weekly sailings as demand softens; shippers are moved to the next departure.`,
    },
    updates: [
      {
        title: `More blank sailings: ${alliance.carriers} cancel another ${alliance.trade} departure`,
        summary: "Booked cargo is rolled to the following week's ship.",
      },
      {
        title: `${alliance.carriers} suspend a ${alliance.trade} loop for three weeks`,
        summary: "Ships of the suspended service are idled or moved to other loops.",
      },
    ],
    end: {
      title: `${alliance.carriers} resume full ${alliance.trade} schedule; service restored`,
      summary: "Weekly departures return to the published schedule.",
    },
  };
}

function scheduleRecovery(alliance: (typeof ALLIANCES)[number]): Script {
  return {
    first: {
      title: `${alliance.carriers} slide schedules on the ${alliance.trade} network; delays of several days`,
      summary: `Ships of the ${alliance.name} run days behind their proforma after weather and bunching; lines add recovery sailings.`,
    },
    updates: [
      {
        title: `Delays persist across the ${alliance.carriers} ${alliance.trade} network`,
        summary: "Shippers report arrivals two to four days late against the published schedule.",
      },
      {
        title: `${alliance.carriers} suspend one ${alliance.trade} rotation to recover schedules`,
        summary: "Cargo on the suspended rotation is moved to the next sailing.",
      },
    ],
    end: {
      title: `${alliance.carriers} ${alliance.trade} schedules back to normal after recovery sailings`,
      summary: "Ships are back on their published days.",
    },
  };
}

const ALLIANCE_SUBJECTS: readonly Subject[] = ALLIANCES.map((a) => ({
  key: a.key,
  script: blankSailings(a),
}));
/** The same alliances in the order two ahead: the two carrier families never name the same carriers. */
const NETWORK_SUBJECTS: readonly Subject[] = ALLIANCES.map(
  (_, i) => ALLIANCES[(i + 2) % ALLIANCES.length]!,
).map((a) => ({ key: a.key, script: scheduleRecovery(a) }));

interface Family {
  name: string;
  subjects: readonly Subject[];
  /** One story follows another every period; its first report comes a few hours after its start. */
  periodMs: number;
  offsetMs: number;
}

/**
 * Periods and rotation: a subject comes back only after every other of its family, long after the
 * service's windows for joining its last story (14 days for a lane's security, 72 hours for a port or
 * a carrier), so each story is an event of its own.
 */
const FAMILIES: readonly Family[] = [
  { name: "lanes", subjects: LANES, periodMs: 12 * DAY, offsetMs: 2 * DAY },
  { name: "hubs", subjects: HUBS, periodMs: 9 * DAY, offsetMs: 5 * DAY },
  { name: "alliances", subjects: ALLIANCE_SUBJECTS, periodMs: 11 * DAY, offsetMs: 8 * DAY },
  // The same period and first subject as the alliances, half a period later: at every instant the two
  // carrier families name two different alliances (half the world's carriers).
  { name: "networks", subjects: NETWORK_SUBJECTS, periodMs: 11 * DAY, offsetMs: 8 * DAY + 5.5 * DAY },
];

/** Reports of one story come at most this far apart: under every category's silence window (3 days). */
const UPDATE_EVERY_MS = 30 * HOUR;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The n-th story of a family (n counted from the epoch). */
function storyOf(family: Family, n: number): Story {
  const base = STORY_EPOCH + family.offsetMs + n * family.periodMs;
  // Stories start within the first 12 hours of their day, drawn per story; the next starts as one ends.
  const startOf = (k: number) =>
    STORY_EPOCH +
    family.offsetMs +
    k * family.periodMs +
    Math.floor(unitHash("story-hour", family.name, k) * 12) * HOUR;
  const start = startOf(n);
  const end = startOf(n + 1);
  // Every subject of the family once before any comes again, from a first subject drawn per family.
  const count = family.subjects.length;
  const shift = Math.floor(
    unitHash("story-subject", family.subjects === NETWORK_SUBJECTS ? "alliances" : family.name) * count,
  );
  const subject = family.subjects[(n + shift) % count]!;
  const { script } = subject;
  const id = `${family.name}-${isoDay(base)}`;
  const publisherAt = (k: number) =>
    STORY_PUBLISHERS[
      (Math.floor(unitHash("story-publisher", family.name, n) * STORY_PUBLISHERS.length) + k) %
        STORY_PUBLISHERS.length
    ]!;
  const items: StoryItem[] = [];
  const push = (k: number, text: Text, at: number) =>
    items.push({ guid: `${id}-${k}`, ...text, publishedAt: at, source: publisherAt(k) });
  push(0, script.first, start + 2 * HOUR);
  let k = 1;
  for (let at = start + 2 * HOUR + UPDATE_EVERY_MS; at < end - 12 * HOUR; at += UPDATE_EVERY_MS, k++) {
    const jitter = Math.floor(unitHash("story-update", family.name, n, k) * 6) * HOUR;
    push(k, script.updates[(k - 1) % script.updates.length]!, at - jitter);
  }
  push(k, script.end, end - 2 * HOUR);
  return { id, family: family.name, subject: subject.key, start, end, items };
}

/** Stories running at some point of [from, to), every family, in start order. */
export function storiesBetween(from: number, to: number): Story[] {
  const found: Story[] = [];
  for (const family of FAMILIES) {
    // The story before `from`'s period may still run (its end is the next one's start).
    const first = Math.floor((from - STORY_EPOCH - family.offsetMs) / family.periodMs) - 1;
    const last = Math.floor((to - STORY_EPOCH - family.offsetMs) / family.periodMs);
    for (let n = Math.max(0, first); n <= last; n++) {
      const story = storyOf(family, n);
      if (story.start < to && story.end > from) found.push(story);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Stories running at an instant (one per family). */
export function storiesActiveAt(at: number): Story[] {
  return storiesBetween(at, at + 1);
}

/** The items published in [from, to], newest first. */
export function storyItemsBetween(from: number, to: number): StoryItem[] {
  return storiesBetween(from - 30 * DAY, to + 1)
    .flatMap((s) => s.items)
    .filter((i) => i.publishedAt >= from && i.publishedAt <= to)
    .sort((a, b) => b.publishedAt - a.publishedAt);
}
