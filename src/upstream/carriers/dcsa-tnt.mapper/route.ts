/**
 * Route.
 */
import {
  type EtaRevision,
  emptyRoute,
  type RoutePoint,
  type TrackedRoute,
} from "../../../domain/tracking/model";
import { type Candidate, CLASSIFIER_RANK } from "./mapping-run";
import { iso } from "./output";

/**
 * The legs that make the port of loading, the transshipments and the port of discharge: vessel moves
 * (LOAD/DISC without a transport call count as vessel moves, as they almost always are). A barge that
 * feeds the ocean vessel (Duisburg to Antwerp, Chongqing to Shanghai) is pre- or on-carriage, so its
 * terminals are prepol/postpod; only a journey with no vessel at all is routed by its barges (a barge
 * feeder then stands in for the vessel).
 */
function mainlinePredicate(sequence: Candidate[]): (c: Candidate) => boolean {
  const bargeIsMainline = !sequence.some((c) => c.mode === "VESSEL");
  return (c) =>
    c.mode === "VESSEL" ||
    (bargeIsMainline && c.mode === "BARGE") ||
    (c.mode === null && (c.code === "LOAD" || c.code === "DISC"));
}

export interface RouteKeys {
  mainline: (c: Candidate) => boolean;
  prepol: Candidate | null;
  pol: Candidate | null;
  pod: Candidate | null;
  postpod: Candidate | null;
  polKey: string | null;
  podKey: string | null;
  prepolKey: string | null;
  postpodKey: string | null;
}

export function buildRoute(sequence: Candidate[]): { route: RouteKeys; transshipments: string[] } {
  const mainline = mainlinePredicate(sequence);
  // POL: the first vessel loading; without loading events, the first departure.
  let polEvent = sequence.find((c) => c.code === "LOAD" && mainline(c)) ?? null;
  polEvent ??= sequence.find((c) => c.code === "DEPA" && mainline(c)) ?? null;
  const polKey = polEvent?.locationKey ?? null;
  let pol: Candidate | null = null;
  if (polEvent) {
    const after = sequence.slice(sequence.indexOf(polEvent));
    const departures = after.filter((c) => c.code === "DEPA" && mainline(c) && c.locationKey === polKey);
    // The date of the POL is the departure there, falling back to the loading.
    pol =
      departures.find((d) => polEvent?.transportCallId && d.transportCallId === polEvent.transportCallId) ??
      departures[0] ??
      polEvent;
    if (pol.instantMs === null && polEvent.instantMs !== null) pol = polEvent;
  }

  // POD: the last vessel discharge or arrival away from the POL. A query by box or document returns
  // the calls of that box, so a later call of the vessel after our box left it is not expected.
  const podEvent =
    sequence.findLast(
      (c) => (c.code === "DISC" || c.code === "ARRI") && mainline(c) && c.locationKey !== polKey,
    ) ?? null;
  const podKey = podEvent?.locationKey ?? null;
  let pod: Candidate | null = null;
  if (podKey) {
    const atPod = sequence.filter((c) => c.locationKey === podKey);
    const arrival = atPod.find((c) => c.code === "ARRI" && mainline(c));
    pod =
      arrival?.instantMs != null ? arrival : (atPod.find((c) => c.instantMs !== null) ?? arrival ?? podEvent);
  }

  // Transshipment (a DISC followed by a LOAD at an intermediate call). A discharge between
  // the POL and the POD is enough: the onward loading is often published later than the discharge.
  const transshipments: string[] = [];
  const podIndex = podEvent ? sequence.indexOf(podEvent) : -1;
  sequence.forEach((c, i) => {
    if (c.kind !== "EQUIPMENT" || c.code !== "DISC" || !mainline(c) || i >= podIndex) return;
    if (c.locationKey === polKey || c.locationKey === podKey || transshipments.includes(c.locationKey))
      return;
    transshipments.push(c.locationKey);
  });

  // Prepol: the first place before loading that is not the POL (empty depot, shipper, inland ramp).
  let prepol: Candidate | null = null;
  if (polEvent) {
    const firstAtPol = sequence.findIndex((c) => c.locationKey === polKey);
    const before = sequence.slice(0, firstAtPol < 0 ? sequence.indexOf(polEvent) : firstAtPol);
    const first = before.find((c) => c.locationKey !== polKey);
    if (first)
      prepol = sequence.find((c) => c.locationKey === first.locationKey && c.instantMs !== null) ?? first;
  }

  // Postpod: the last place after the POD reached by land. Empty boxes going back to a depot and the
  // vessel's later calls are not the destination.
  let postpod: Candidate | null = null;
  if (podKey) {
    const firstAtPod = sequence.findIndex((c) => c.locationKey === podKey);
    const after = sequence.slice(firstAtPod + 1);
    const last = after.findLast(
      (c) => c.locationKey !== podKey && c.emptyIndicator !== "EMPTY" && !mainline(c),
    );
    if (last) {
      const there = after.filter((c) => c.locationKey === last.locationKey);
      postpod = there.find((c) => c.instantMs !== null) ?? last;
    }
  }

  const route = {
    mainline,
    prepol,
    pol,
    pod,
    postpod,
    polKey,
    podKey,
    prepolKey: prepol?.locationKey ?? null,
    postpodKey: postpod?.locationKey ?? null,
  };
  return { route, transshipments };
}

function routePoint(c: Candidate | null): RoutePoint {
  if (c === null) return { locationKey: null, localDateTime: null, instant: null, actual: null };
  return {
    locationKey: c.locationKey,
    localDateTime: c.local,
    instant: c.instantMs === null ? null : iso(c.instantMs),
    actual: c.instantMs === null ? null : c.actual,
  };
}

export function routeOut(route: RouteKeys): TrackedRoute {
  const out = emptyRoute();
  out.prepol = routePoint(route.prepol);
  out.pol = routePoint(route.pol);
  out.pod = routePoint(route.pod);
  out.postpod = routePoint(route.postpod);
  return out;
}

export function podArrivalOf(sequence: Candidate[], route: RouteKeys): Candidate | null {
  if (route.podKey === null) return null;
  return (
    sequence.find((c) => c.code === "ARRI" && route.mainline(c) && c.locationKey === route.podKey) ?? null
  );
}

/**
 * Every revision of the arrival at the POD the carrier sent, in the order it issued them. A PLN issued
 * after an EST does not replace it, and nothing replaces an ACT (the same precedence as the route).
 */
export function etaHistory(all: Candidate[], route: RouteKeys): EtaRevision[] {
  if (route.podKey === null) return [];
  const revisions = all
    .filter(
      (c) => c.code === "ARRI" && route.mainline(c) && c.locationKey === route.podKey && c.instantMs !== null,
    )
    .sort((a, b) => a.createdMs - b.createdMs || a.index - b.index);
  const history: EtaRevision[] = [];
  let strongest = -1;
  for (const r of revisions) {
    const rank = r.actual
      ? CLASSIFIER_RANK.ACT
      : CLASSIFIER_RANK[r.classifier === "ACT" ? "EST" : r.classifier];
    if (rank < strongest) continue;
    strongest = rank;
    const eta = iso(r.instantMs as number);
    const last = history.at(-1);
    if (last && last.eta === eta && last.actual === r.actual) continue;
    history.push({ eta, localDateTime: r.local as string, recordedAt: iso(r.createdMs), actual: r.actual });
  }
  return history;
}
