import type { PrismaClient } from "../../generated/prisma/client";
import { findCarrierByScac } from "../carriers/carrier-directory";
import { findPortEntry } from "../ports/port-directory";
import { shipmentName } from "../shipments/shipment-id";
import type { TrackedLocation, TrackingDocument } from "../tracking/model";
import {
  type MailKind,
  type MailLinks,
  type MailShipment,
  type MailTopic,
  type PlaceName,
  TOPIC_OF_KIND,
  TOPIC_WORDS,
} from "./messages";
import { signUnsubscribe } from "./unsubscribe";

type Db = Pick<PrismaClient, "shipment" | "documentVersion">;

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  try {
    return regionNames.of(code.toUpperCase()) ?? null;
  } catch {
    return null;
  }
}

/**
 * A document location in words: the port directory's name and country for its UN/LOCODE, else the
 * carrier's own name for the place (when it is a name, not the code again), else null.
 */
export function placeOf(location: TrackedLocation | undefined | null): PlaceName | null {
  if (!location) return null;
  const entry = location.unLocode ? findPortEntry(location.unLocode) : undefined;
  if (entry) return { name: entry.name, country: entry.country ?? countryName(entry.countryCode) };
  const name = location.name?.trim();
  const country = location.country ?? countryName(location.countryCode);
  // A carrier that names the place by its code again: the country is still worth saying.
  if (!name || /^[A-Z]{2}[A-Z0-9]{3}$/.test(name)) return country ? { name: "a port", country } : null;
  return { name, country };
}

export function locationOf(doc: TrackingDocument, key: string | null): TrackedLocation | undefined {
  return key ? doc.locations.find((l) => l.key === key) : undefined;
}

/** Where links in mail point: the deployment's public URL (QUAYSIDE_PUBLIC_URL). */
export interface MailUrls {
  base: string;
  /** The deployment's unsubscribe signing key (read from the database once). */
  secret: () => Promise<string>;
}

export const dashboardShipmentUrl = (base: string, name: string) => `${base}/dashboard/shipments/${name}`;
export const preferencesUrl = (base: string) => `${base}/dashboard/notifications`;
export const unsubscribeUrl = (base: string, token: string) => `${base}/unsubscribe/${token}`;

/** The footer's and `List-Unsubscribe`'s links for one recipient and kind of mail. */
export async function linksFor(urls: MailUrls, userId: string | null, kind: MailKind): Promise<MailLinks> {
  const topic: MailTopic | null = TOPIC_OF_KIND[kind];
  if (!userId) {
    return {
      preferences: preferencesUrl(urls.base),
      unsubscribeKind: null,
      unsubscribeAll: null,
      kindWords: null,
    };
  }
  const secret = await urls.secret();
  return {
    preferences: preferencesUrl(urls.base),
    unsubscribeKind: topic ? unsubscribeUrl(urls.base, signUnsubscribe(secret, userId, topic)) : null,
    unsubscribeAll: unsubscribeUrl(urls.base, signUnsubscribe(secret, userId, "all")),
    kindWords: topic ? TOPIC_WORDS[topic] : null,
  };
}

export interface ShipmentForMail {
  shipment: MailShipment;
  id: string;
  document: TrackingDocument | null;
  followedSince?: Date;
}

/** A shipment in words (customer, carrier name, ports by name) and its current document. */
export async function shipmentForMail(
  db: Db,
  base: string,
  shipmentId: string,
): Promise<ShipmentForMail | null> {
  const row = await db.shipment.findUnique({
    where: { id: shipmentId },
    select: {
      id: true,
      number: true,
      reference: true,
      carrierScac: true,
      customer: { select: { name: true } },
      document: { select: { id: true, latestVersion: true } },
    },
  });
  if (!row) return null;
  const version =
    row.document && row.document.latestVersion > 0
      ? await db.documentVersion.findUnique({
          where: { documentId_version: { documentId: row.document.id, version: row.document.latestVersion } },
          select: { content: true },
        })
      : null;
  const document = (version?.content ?? null) as TrackingDocument | null;
  const carrier = findCarrierByScac(row.carrierScac ?? document?.carrierScac ?? "");
  const name = shipmentName(row.number);
  const route = document?.route;
  const origin = document
    ? (placeOf(locationOf(document, route!.pol.locationKey)) ??
      placeOf(locationOf(document, route!.prepol.locationKey)))
    : null;
  const destination = document
    ? (placeOf(locationOf(document, route!.pod.locationKey)) ??
      placeOf(locationOf(document, route!.postpod.locationKey)))
    : null;
  return {
    id: row.id,
    document,
    shipment: {
      name,
      reference: row.reference,
      customer: row.customer?.name ?? null,
      carrier: carrier?.name ?? null,
      origin,
      destination,
      link: dashboardShipmentUrl(base, name),
    },
  };
}
