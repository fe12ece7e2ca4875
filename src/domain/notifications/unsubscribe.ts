import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { SecretBox } from "../../lib/secret-box";
import { type MailTopic, TOPIC_WORDS } from "./messages";

/**
 * One-click unsubscribe (RFC 8058, issue 43 item 2). A link carries who and what, signed with the
 * deployment's mail key: `<user id>.<topic>.<signature>`, where the topic is a preference (one kind of
 * mail) or `all`. The link is the capability: no sign-in, no expiry (a mail read a year later must
 * still let its reader out), and it can only ever switch mail off, so a leaked link costs nothing but
 * mail its owner may switch on again.
 */
export type UnsubscribeTopic = MailTopic | "all";

const TOPICS = new Set<string>([...Object.keys(TOPIC_WORDS), "all"]);
const KEY_ID = "unsubscribe";
const USER_ID = /^[0-9a-f-]{36}$/;

export interface SignedUnsubscribe {
  userId: string;
  topic: UnsubscribeTopic;
}

export function topicWords(topic: UnsubscribeTopic): string {
  return topic === "all" ? "all mail from Quayside" : TOPIC_WORDS[topic];
}

function signature(secret: string, userId: string, topic: string): string {
  return createHmac("sha256", secret)
    .update(`unsubscribe:${userId}:${topic}`)
    .digest("base64url")
    .slice(0, 32);
}

export function signUnsubscribe(secret: string, userId: string, topic: UnsubscribeTopic): string {
  return `${userId}.${topic}.${signature(secret, userId, topic)}`;
}

/** The user and topic of a genuine token; null for anything altered, truncated or made up. */
export function verifyUnsubscribe(secret: string, token: string): SignedUnsubscribe | null {
  if (token.length > 200) return null;
  const [userId, topic, sig, ...rest] = token.split(".");
  if (rest.length > 0 || !userId || !topic || !sig) return null;
  if (!USER_ID.test(userId) || !TOPICS.has(topic)) return null;
  const expected = Buffer.from(signature(secret, userId, topic));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, topic: topic as UnsubscribeTopic };
}

/**
 * The deployment's signing key: made by the first process that needs it (a conflicting insert by
 * another process loses, and both then read the one row), kept in the database so every process and
 * every restart signs alike, and sealed there (docs/decisions/secrets-at-rest.md): a copy of the
 * database alone cannot forge a link.
 */
export async function mailSigningSecret(deps: {
  prisma: Pick<PrismaClient, "mailSigningKey">;
  now: Date;
  secrets: SecretBox;
}): Promise<string> {
  const { prisma, now, secrets } = deps;
  const existing = await prisma.mailSigningKey.findUnique({ where: { id: KEY_ID } });
  if (existing) return secrets.open(existing.secret);
  await prisma.mailSigningKey.createMany({
    data: [{ id: KEY_ID, secret: secrets.seal(randomBytes(32).toString("base64url")), createdAt: now }],
    skipDuplicates: true,
  });
  return secrets.open((await prisma.mailSigningKey.findUniqueOrThrow({ where: { id: KEY_ID } })).secret);
}
