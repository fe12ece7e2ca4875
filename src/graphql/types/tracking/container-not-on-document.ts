import type { TrackOutcome } from "../../../domain/tracking/tracking.service";
import { builder } from "../../builder";
import { ReferenceTypeEnum } from "./reference-type";

export const ContainerNotOnDocumentRef = builder
  .objectRef<Extract<TrackOutcome, { kind: "container_not_on_document" }>>("ContainerNotOnDocument")
  .implement({
    description:
      "A combined `<bill-of-lading>/<container>` (or `<booking>/<container>`) value: the carrier answered for the document, but the container is not on it.",
    fields: (t) => ({
      referenceType: t.field({ type: ReferenceTypeEnum, resolve: (o) => o.referenceType }),
      reference: t.exposeString("reference", { description: "The document part of the value." }),
      container: t.exposeString("container", { description: "The container part of the value." }),
      scac: t.exposeString("scac", { description: "The carrier that answered for the document." }),
      carrierProvided: t.exposeBoolean("carrierProvided", {
        description: "Whether the caller named that carrier.",
      }),
    }),
  });
