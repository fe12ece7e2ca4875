import { SANDBOX_PARTNER_SOURCE_ID } from "../../facades/v1/contract/schemas/partners";
import type { Services } from "./services";

/**
 * The sandbox organisation's partner source, under a fixed id, so the v1 partner routes' examples
 * (rotate, post events, remove) answer in the sandbox as documented. It has posted nothing: the
 * world's timelines stay the carrier's, and a sandbox post is put back after its answer like any write.
 */
export async function seedSandboxPartners(services: Services, organizationId: string): Promise<void> {
  const created = await services.partners.create(organizationId, "Sandbox Drayage BV");
  if ("kind" in created) throw new Error(`sandbox partners: the source was refused (${created.reason})`);
  await services.db.prisma.partnerSource.update({
    where: { id: created.source.id },
    data: { id: SANDBOX_PARTNER_SOURCE_ID },
  });
}
