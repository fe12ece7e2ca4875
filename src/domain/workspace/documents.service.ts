import { createHash, randomUUID } from "node:crypto";
import type {
  Prisma,
  PrismaClient,
  WorkspaceDocument,
  WorkspaceDocumentType,
} from "../../generated/prisma/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../observability/logger";
import type { Principal } from "../accounts/principal";
import { shipmentIdWhere } from "../shipments/shipment-id";
import { sniffDocument } from "./document-sniff";
import type { DocumentStorage } from "./document-storage";
import { sanitiseFileName } from "./file-name";

export const WORKSPACE_DOCUMENT_TYPES = [
  "bill_of_lading",
  "commercial_invoice",
  "packing_list",
  "arrival_notice",
  "delivery_order",
  "customs_entry",
  "other",
] as const satisfies readonly WorkspaceDocumentType[];

/** Most shipments one document is attached to at once (one upload or one attach). */
export const MAX_SHIPMENTS_PER_DOCUMENT = 50;

export type DocumentWithShipments = WorkspaceDocument & {
  uploadedBy: { name: string; email: string };
  shipments: { shipment: { id: string; number: bigint; reference: string } }[];
};

export type UploadOutcome =
  | { kind: "uploaded"; document: DocumentWithShipments }
  | { kind: "empty" }
  | { kind: "too_large"; maxBytes: number }
  | { kind: "type_not_allowed"; found: string | null }
  | { kind: "shipment_not_found"; reference: string };

export type AttachOutcome =
  | { kind: "done"; document: DocumentWithShipments }
  | { kind: "document_not_found" }
  | { kind: "shipment_not_found"; reference: string };

const WITH_SHIPMENTS = {
  uploadedBy: { select: { name: true as const, email: true as const } },
  shipments: {
    where: { shipment: { deletedAt: null } },
    select: { shipment: { select: { id: true as const, number: true as const, reference: true as const } } },
    orderBy: { shipment: { number: "asc" as const } },
  },
} satisfies Prisma.WorkspaceDocumentInclude;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Documents of an organisation's workspace: uploaded through GraphQL, attached to its shipments, read
 * back by id or by shipment, downloaded through the organisation's own key, deleted. Every read and
 * change is scoped to the principal's organisation: another organisation's id is simply not found.
 */
export class WorkspaceDocumentsService {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      storage: DocumentStorage;
      logger: Logger;
      /** Upload times come from the service's clock (the sandbox's stands still), not the database's. */
      clock: Clock;
      /** Largest accepted file, in bytes. */
      maxBytes: number;
    },
  ) {}

  get maxBytes(): number {
    return this.deps.maxBytes;
  }

  async upload(
    principal: Principal,
    input: {
      bytes: Uint8Array;
      fileName: string;
      documentType: WorkspaceDocumentType;
      name?: string | null;
      shipments: readonly string[];
    },
  ): Promise<UploadOutcome> {
    const { bytes } = input;
    if (bytes.length === 0) return { kind: "empty" };
    if (bytes.length > this.deps.maxBytes) return { kind: "too_large", maxBytes: this.deps.maxBytes };
    const sniffed = await sniffDocument(bytes);
    if (!sniffed.ok) return { kind: "type_not_allowed", found: sniffed.found };
    const organizationId = principal.organization.id;
    const shipments = await this.resolveShipments(organizationId, input.shipments);
    if (!shipments.ok) return { kind: "shipment_not_found", reference: shipments.reference };

    const id = randomUUID();
    const storageKey = `${organizationId}/${id}`;
    const fileName = sanitiseFileName(input.fileName, sniffed.extension);
    await this.deps.storage.put(storageKey, bytes, sniffed.contentType);
    try {
      await this.deps.prisma.workspaceDocument.create({
        data: {
          id,
          organizationId,
          uploadedByUserId: principal.user.id,
          name: input.name?.trim() || fileName,
          documentType: input.documentType,
          fileName,
          contentType: sniffed.contentType,
          sizeBytes: bytes.length,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          storageKey,
          createdAt: this.deps.clock.now(),
          shipments: { create: shipments.ids.map((shipmentId) => ({ shipmentId })) },
        },
      });
    } catch (error) {
      // No row, no bytes: a failed insert must not leave an unreachable file behind.
      await this.deps.storage.delete(storageKey).catch(() => undefined);
      throw error;
    }
    return { kind: "uploaded", document: (await this.find(organizationId, id))! };
  }

  /** One document of the organisation, or null (another organisation's id included). */
  async find(organizationId: string, id: string): Promise<DocumentWithShipments | null> {
    if (!UUID.test(id)) return null;
    return this.deps.prisma.workspaceDocument.findFirst({
      where: { id, organizationId },
      include: WITH_SHIPMENTS,
    });
  }

  /** The organisation's documents, newest first; only those attached to one shipment when given. */
  async list(
    organizationId: string,
    options: { shipmentId?: string; limit?: number } = {},
  ): Promise<DocumentWithShipments[]> {
    return this.deps.prisma.workspaceDocument.findMany({
      where: {
        organizationId,
        ...(options.shipmentId ? { shipments: { some: { shipmentId: options.shipmentId } } } : {}),
      },
      include: WITH_SHIPMENTS,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take: options.limit ?? 100,
    });
  }

  async attach(
    organizationId: string,
    id: string,
    references: readonly string[],
    attach: boolean,
  ): Promise<AttachOutcome> {
    const document = await this.find(organizationId, id);
    if (!document) return { kind: "document_not_found" };
    const shipments = await this.resolveShipments(organizationId, references);
    if (!shipments.ok) return { kind: "shipment_not_found", reference: shipments.reference };
    if (attach) {
      await this.deps.prisma.workspaceDocumentShipment.createMany({
        data: shipments.ids.map((shipmentId) => ({ documentId: id, shipmentId })),
        skipDuplicates: true,
      });
    } else {
      await this.deps.prisma.workspaceDocumentShipment.deleteMany({
        where: { documentId: id, shipmentId: { in: shipments.ids } },
      });
    }
    return { kind: "done", document: (await this.find(organizationId, id))! };
  }

  /** Deletes the document and its bytes; false when the organisation has no such document. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const document = await this.deps.prisma.workspaceDocument.findFirst({ where: { id, organizationId } });
    if (!document) return false;
    const { count } = await this.deps.prisma.workspaceDocument.deleteMany({ where: { id, organizationId } });
    if (count === 0) return false;
    await this.deps.storage.delete(document.storageKey).catch((error: unknown) => {
      // The row is gone, so nobody can reach the bytes; left behind, they are only wasted space.
      this.deps.logger.warn({ err: error, documentId: id }, "Deleted document's bytes could not be removed");
    });
    return true;
  }

  /** The document and its bytes for a download by its own organisation, or null. */
  async open(
    organizationId: string,
    id: string,
  ): Promise<{ document: WorkspaceDocument; bytes: Uint8Array } | null> {
    const document = await this.find(organizationId, id);
    if (!document) return null;
    const bytes = await this.deps.storage.get(document.storageKey);
    if (!bytes) {
      this.deps.logger.error({ documentId: id, storage: this.deps.storage.kind }, "Document bytes missing");
      return null;
    }
    return { document, bytes };
  }

  private async resolveShipments(
    organizationId: string,
    references: readonly string[],
  ): Promise<{ ok: true; ids: string[] } | { ok: false; reference: string }> {
    const ids = new Set<string>();
    for (const reference of references) {
      const found = await this.deps.prisma.shipment.findFirst({
        where: shipmentIdWhere(organizationId, reference),
        select: { id: true },
        orderBy: { createdAt: "desc" },
      });
      if (!found) return { ok: false, reference };
      ids.add(found.id);
    }
    return { ok: true, ids: [...ids] };
  }
}
