import type { PrismaClient } from "../generated/prisma/client";
import { isSealed, type SecretBox } from "../lib/secret-box";

/**
 * The data migration of docs/decisions/secrets-at-rest.md: rows written before secrets were sealed
 * (partner sources' signing secrets, carrier subscriptions' secrets, webhook endpoints' signing
 * secrets) are sealed at start. A SQL
 * migration cannot do it (the key is configuration, not data); each row is updated only while it still
 * holds the clear value, so instances starting together never seal a value twice.
 */
export async function sealStoredSecrets(
  prisma: PrismaClient,
  secrets: SecretBox,
): Promise<{ partnerSources: number; carrierSubscriptions: number; webhookEndpoints: number }> {
  let partnerSources = 0;
  for (const row of await prisma.partnerSource.findMany({
    where: { NOT: { signingSecret: { startsWith: "enc:" } } },
    select: { id: true, signingSecret: true },
  })) {
    if (isSealed(row.signingSecret)) continue;
    const { count } = await prisma.partnerSource.updateMany({
      where: { id: row.id, signingSecret: row.signingSecret },
      data: { signingSecret: secrets.seal(row.signingSecret) },
    });
    partnerSources += count;
  }
  let carrierSubscriptions = 0;
  for (const row of await prisma.carrierSubscription.findMany({
    where: { NOT: { secret: { startsWith: "enc:" } } },
    select: { id: true, secret: true },
  })) {
    if (isSealed(row.secret)) continue;
    const { count } = await prisma.carrierSubscription.updateMany({
      where: { id: row.id, secret: row.secret },
      data: { secret: secrets.seal(row.secret) },
    });
    carrierSubscriptions += count;
  }
  let webhookEndpoints = 0;
  for (const row of await prisma.webhookEndpoint.findMany({
    where: { NOT: { secret: { startsWith: "enc:" } } },
    select: { id: true, secret: true },
  })) {
    if (isSealed(row.secret)) continue;
    const { count } = await prisma.webhookEndpoint.updateMany({
      where: { id: row.id, secret: row.secret },
      data: { secret: secrets.seal(row.secret) },
    });
    webhookEndpoints += count;
  }
  return { partnerSources, carrierSubscriptions, webhookEndpoints };
}
