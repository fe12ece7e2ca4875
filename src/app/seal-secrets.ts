import type { PrismaClient } from "../generated/prisma/client";
import { isSealed, type SecretBox } from "../lib/secret-box";

/** Rows sealed per table by one pass. */
export interface SealedCounts {
  partnerSources: number;
  carrierSubscriptions: number;
  webhookEndpoints: number;
  shareLinks: number;
  mailSigningKeys: number;
}

/**
 * The data migration of docs/decisions/secrets-at-rest.md: rows written before secrets were sealed
 * (partner sources' signing secrets, carrier subscriptions' secrets, webhook endpoints' signing
 * secrets, share links' tokens, the unsubscribe links' signing key) are sealed at start. A SQL
 * migration cannot do it (the key is configuration, not data); each row is updated only while it still
 * holds the clear value, so instances starting together never seal a value twice.
 */
export async function sealStoredSecrets(prisma: PrismaClient, secrets: SecretBox): Promise<SealedCounts> {
  const inClear = { not: { startsWith: "enc:" } };
  const sealEach = async (
    rows: { id: string; value: string }[],
    update: (id: string, clear: string, sealed: string) => Promise<{ count: number }>,
  ) => {
    let sealed = 0;
    for (const { id, value } of rows) {
      if (isSealed(value)) continue;
      sealed += (await update(id, value, secrets.seal(value))).count;
    }
    return sealed;
  };
  return {
    partnerSources: await sealEach(
      (
        await prisma.partnerSource.findMany({
          where: { signingSecret: inClear },
          select: { id: true, signingSecret: true },
        })
      ).map((r) => ({ id: r.id, value: r.signingSecret })),
      (id, clear, sealed) =>
        prisma.partnerSource.updateMany({
          where: { id, signingSecret: clear },
          data: { signingSecret: sealed },
        }),
    ),
    carrierSubscriptions: await sealEach(
      (
        await prisma.carrierSubscription.findMany({
          where: { secret: inClear },
          select: { id: true, secret: true },
        })
      ).map((r) => ({ id: r.id, value: r.secret })),
      (id, clear, sealed) =>
        prisma.carrierSubscription.updateMany({ where: { id, secret: clear }, data: { secret: sealed } }),
    ),
    webhookEndpoints: await sealEach(
      (
        await prisma.webhookEndpoint.findMany({
          where: { secret: inClear },
          select: { id: true, secret: true },
        })
      ).map((r) => ({ id: r.id, value: r.secret })),
      (id, clear, sealed) =>
        prisma.webhookEndpoint.updateMany({ where: { id, secret: clear }, data: { secret: sealed } }),
    ),
    shareLinks: await sealEach(
      (await prisma.shareLink.findMany({ where: { token: inClear }, select: { id: true, token: true } })).map(
        (r) => ({ id: r.id, value: r.token }),
      ),
      (id, clear, sealed) =>
        prisma.shareLink.updateMany({ where: { id, token: clear }, data: { token: sealed } }),
    ),
    mailSigningKeys: await sealEach(
      (
        await prisma.mailSigningKey.findMany({
          where: { secret: inClear },
          select: { id: true, secret: true },
        })
      ).map((r) => ({ id: r.id, value: r.secret })),
      (id, clear, sealed) =>
        prisma.mailSigningKey.updateMany({ where: { id, secret: clear }, data: { secret: sealed } }),
    ),
  };
}
