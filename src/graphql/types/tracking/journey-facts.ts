import { placeLocations } from "../../../domain/routes/placed-locations";
import { routeSegments } from "../../../domain/routes/route-segments";
import { perDocument } from "./in-document";

/** A document's places and legs, computed once per document object (sea routes are costly). */
export const placedOf = perDocument(placeLocations);
export const segmentsOf = perDocument((doc) => routeSegments(doc, placedOf(doc)));
