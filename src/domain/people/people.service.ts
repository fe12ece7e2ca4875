import { createHash, randomBytes } from "node:crypto";
import type { Invitation, Organization, PrismaClient, User } from "../../generated/prisma/client";
import type { UserRole } from "../../generated/prisma/enums";
import type { Clock } from "../../lib/clock";
import { AccountError } from "../accounts/accounts.service";
import { planOf } from "../accounts/plans";
import type { Principal } from "../accounts/principal";
import type { FixedWindowLimiter } from "../limits/fixed-window";
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from "./passwords";
import type { AccountSignInLock } from "./sign-in-lockout";

/** A signed-in session ends after this long without a request... */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** ...and after this long in any case (sign in again). */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** Failed sign-ins per address in SIGN_IN_WINDOW_MS before further attempts are refused unread. */
export const SIGN_IN_FAILURES_PER_WINDOW = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const INVITATION_VALID_MS = 7 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, so a page view is not always a write. */
const TOUCH_RESOLUTION_MS = 60_000;

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

const sha256 = (raw: string) => createHash("sha256").update(raw).digest("hex");
const randomToken = () => randomBytes(32).toString("base64url");

/** An open session as the HTTP layer sees it: the raw id goes into the cookie, never into the database. */
export interface OpenedSession {
  rawId: string;
  csrfToken: string;
  expiresAt: Date;
}

export interface ResolvedSession {
  csrfToken: string;
  /** Null for a visitor who has not signed in. */
  principal: Principal | null;
}

/** Why a sign-in was refused unread: too many failures from the address, or to the account. */
export type SignInThrottle = "address" | "account";

export type SignInResult =
  | { ok: true; session: OpenedSession; principal: Principal }
  | { ok: false; refusal: "wrong_credentials" }
  | { ok: false; refusal: "throttled"; throttle: SignInThrottle; retryAfterSeconds: number };

/**
 * What the team's changes set off beyond its own tables, wired by the composition root: an
 * invitation's e-mail goes to the notifications' mail queue (SMTP, or the database outbox the
 * dashboard shows; the link is also shown to the owner who invited), and a removed teammate's keys
 * leave the key cache.
 */
export interface PeopleEffects {
  invitationCreated(message: {
    invitationId: string;
    organizationId: string;
    to: string;
    organizationName: string;
    invitedBy: string;
    path: string;
  }): Promise<void>;
  /** Keys revoked with a removed teammate, by hash: the composition root makes the key cache forget them. */
  keysRevoked?(keyHashes: readonly string[]): void;
}

export const NO_PEOPLE_EFFECTS: PeopleEffects = { invitationCreated: async () => undefined };

/**
 * People in the dashboard: passwords, server-side sessions and invitations. API keys stay with the
 * AccountsService; a session yields the same Principal a key does (without a key), so the GraphQL
 * scopes apply unchanged.
 */
export class PeopleService {
  private readonly limiter: FixedWindowLimiter;
  private readonly accountLock: AccountSignInLock;
  private readonly effects: PeopleEffects;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    {
      limiter,
      accountLock,
      effects = NO_PEOPLE_EFFECTS,
    }: { limiter: FixedWindowLimiter; accountLock: AccountSignInLock; effects?: PeopleEffects },
  ) {
    this.limiter = limiter;
    this.accountLock = accountLock;
    this.effects = effects;
  }

  async resolve(rawId: string | undefined): Promise<ResolvedSession | null> {
    if (!rawId || rawId.length > 100) return null;
    const row = await this.prisma.dashboardSession.findUnique({
      where: { id: sha256(rawId) },
      include: { user: { include: { organization: true } } },
    });
    const now = this.clock.now();
    if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
    if (!row.user) return { csrfToken: row.csrfToken, principal: null };
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_RESOLUTION_MS) {
      const expiresAt = new Date(
        Math.min(now.getTime() + SESSION_IDLE_MS, row.createdAt.getTime() + SESSION_ABSOLUTE_MS),
      );
      await this.prisma.dashboardSession.update({
        where: { id: row.id },
        data: { lastSeenAt: now, expiresAt },
      });
    }
    return { csrfToken: row.csrfToken, principal: sessionPrincipal(row.user, row.id) };
  }

  /**
   * Signs a person in. The previous session (a visitor's, or another person's on a shared browser)
   * is deleted and a new id issued, so an id planted before sign-in is worthless after it (session
   * fixation). Failures are counted per address and per account (from any address); past either
   * bound, attempts are refused unread, the right password included (docs/decisions/dashboard.md).
   */
  async signIn(input: {
    email: string;
    password: string;
    address: string;
    previousRawId?: string;
  }): Promise<SignInResult> {
    const subject = `sign-in-failures:${input.address}`;
    const window = await this.limiter.peek(subject, SIGN_IN_FAILURES_PER_WINDOW, SIGN_IN_WINDOW_MS);
    if (!window.allowed) {
      return {
        ok: false,
        refusal: "throttled",
        throttle: "address",
        retryAfterSeconds: window.retryAfterSeconds,
      };
    }
    const email = input.email.trim().toLowerCase();
    const lock = await this.accountLock.state(email);
    if (lock.locked) {
      return {
        ok: false,
        refusal: "throttled",
        throttle: "account",
        retryAfterSeconds: lock.retryAfterSeconds,
      };
    }
    const user = await this.prisma.user.findUnique({ where: { email }, include: { organization: true } });
    const good = user?.passwordHash
      ? await verifyPassword(input.password, user.passwordHash)
      : (await verifyPassword(input.password, await decoyHash())) && false;
    if (!user || !good) {
      await Promise.all([
        this.limiter.consume(subject, SIGN_IN_FAILURES_PER_WINDOW, SIGN_IN_WINDOW_MS),
        this.accountLock.recordFailure(email),
      ]);
      return { ok: false, refusal: "wrong_credentials" };
    }
    if (input.previousRawId) await this.signOut(input.previousRawId);
    await this.prisma.dashboardSession.deleteMany({ where: { expiresAt: { lte: this.clock.now() } } });
    const session = await this.open(user.id, SESSION_IDLE_MS);
    return { ok: true, session, principal: sessionPrincipal(user, sha256(session.rawId)) };
  }

  async signOut(rawId: string): Promise<void> {
    await this.prisma.dashboardSession.deleteMany({ where: { id: sha256(rawId) } });
  }

  /** Sets a password (the CLI, an accepted invitation). Every session of the user ends. */
  async setPassword(userId: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw new AccountError("invalid_input", problem);
    await this.prisma.user.update({
      where: { id: userId },
      data: { passwordHash: await hashPassword(password) },
    });
    await this.prisma.dashboardSession.deleteMany({ where: { userId } });
  }

  /**
   * Changes the signed-in person's password after checking the current one. Their other sessions
   * end (a stolen session does not outlive the change); the one asking stays signed in.
   */
  async changePassword(input: {
    userId: string;
    sessionId: string | null;
    current: string;
    next: string;
  }): Promise<void> {
    const user = await this.prisma.user.findUnique({ where: { id: input.userId } });
    if (!user?.passwordHash || !(await verifyPassword(input.current, user.passwordHash))) {
      throw new AccountError("invalid_input", "The current password is not right.");
    }
    const problem = passwordProblem(input.next);
    if (problem) throw new AccountError("invalid_input", problem);
    await this.prisma.user.update({
      where: { id: user.id },
      data: { passwordHash: await hashPassword(input.next) },
    });
    await this.prisma.dashboardSession.deleteMany({
      where: { userId: user.id, ...(input.sessionId ? { id: { not: input.sessionId } } : {}) },
    });
  }

  /** Invites a teammate; the raw token is returned once (the link) and handed to the outbox. */
  async invite(input: {
    organization: Organization;
    invitedBy: User;
    email: string;
    role: UserRole;
  }): Promise<{ invitation: Invitation; rawToken: string }> {
    const email = input.email.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254) {
      throw new AccountError("invalid_input", `Not an e-mail address: ${input.email.slice(0, 80)}`);
    }
    if (await this.prisma.user.findUnique({ where: { email } })) {
      throw new AccountError("conflict", `A user with e-mail ${email} already exists.`);
    }
    const rawToken = randomToken();
    const now = this.clock.now();
    const invitation = await this.prisma.invitation.create({
      data: {
        organizationId: input.organization.id,
        email,
        role: input.role,
        tokenHash: sha256(rawToken),
        invitedById: input.invitedBy.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_VALID_MS),
      },
    });
    await this.effects.invitationCreated({
      invitationId: invitation.id,
      organizationId: input.organization.id,
      to: email,
      organizationName: input.organization.name,
      invitedBy: input.invitedBy.name,
      path: invitationPath(rawToken),
    });
    return { invitation, rawToken };
  }

  listInvitations(organizationId: string): Promise<Invitation[]> {
    return this.prisma.invitation.findMany({
      where: { organizationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: this.clock.now() } },
      orderBy: { createdAt: "desc" },
    });
  }

  async revokeInvitation(organizationId: string, id: string): Promise<Invitation> {
    const found = await this.prisma.invitation.findUnique({ where: { id } });
    if (!found || found.organizationId !== organizationId)
      throw new AccountError("not_found", "No such invitation.");
    return this.prisma.invitation.update({
      where: { id },
      data: { revokedAt: found.revokedAt ?? this.clock.now() },
    });
  }

  /**
   * Gives a teammate another role. An organisation always keeps an owner: the last one cannot become
   * a member. Another organisation's user, or a removed one, is not found.
   */
  async changeRole(input: { organizationId: string; userId: string; role: UserRole }): Promise<User> {
    return this.prisma.$transaction(async (tx) => {
      const user = await this.teammate(tx, input.organizationId, input.userId);
      if (user.role === input.role) return user;
      if (user.role === "owner") await this.keepAnOwner(tx, input.organizationId, user.id);
      return tx.user.update({ where: { id: user.id }, data: { role: input.role } });
    });
  }

  /**
   * Removes a teammate: their API keys are revoked, their sessions end, they follow nothing and get no
   * mail. The row stays (shipments and history name who added them) under a placeholder address, so
   * the person can be invited again. Nobody removes themselves, and the last owner stays.
   */
  async removeTeammate(input: {
    organizationId: string;
    actingUserId: string;
    userId: string;
  }): Promise<User> {
    if (input.userId === input.actingUserId) {
      throw new AccountError("invalid_input", "You cannot remove yourself; another owner can.");
    }
    const now = this.clock.now();
    const revoked: string[] = [];
    const removed = await this.prisma.$transaction(async (tx) => {
      const user = await this.teammate(tx, input.organizationId, input.userId);
      if (user.role === "owner") await this.keepAnOwner(tx, input.organizationId, user.id);
      const keys = await tx.apiKey.findMany({ where: { userId: user.id }, select: { keyHash: true } });
      revoked.push(...keys.map((k) => k.keyHash));
      await tx.apiKey.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } });
      await tx.dashboardSession.deleteMany({ where: { userId: user.id } });
      await tx.shipmentFollower.deleteMany({ where: { userId: user.id } });
      await tx.notificationPreference.deleteMany({ where: { userId: user.id } });
      return tx.user.update({
        where: { id: user.id },
        data: { removedAt: now, passwordHash: null, email: `removed-${user.id}@removed.invalid` },
      });
    });
    this.effects.keysRevoked?.(revoked);
    return removed;
  }

  /**
   * What `viewer` may do to `user` on the team, by the same rules `changeRole` and `removeTeammate`
   * enforce, so a page offers only what would succeed. Owners manage teammates of their organisation
   * who are still on it; nobody removes themselves; an owner may step down to member only while another
   * owner remains (the only case `keepAnOwner` can refuse when the one asking is an owner, since any
   * other owner they manage leaves them as one).
   */
  async teamRights(
    viewer: { id: string; organizationId: string; role: UserRole },
    user: Pick<User, "id" | "organizationId" | "removedAt">,
  ): Promise<{ removable: boolean; roleChangeable: boolean }> {
    const manages =
      viewer.role === "owner" && user.organizationId === viewer.organizationId && !user.removedAt;
    if (!manages) return { removable: false, roleChangeable: false };
    if (user.id !== viewer.id) return { removable: true, roleChangeable: true };
    const others = await this.prisma.user.count({
      where: {
        organizationId: viewer.organizationId,
        role: "owner",
        removedAt: null,
        id: { not: viewer.id },
      },
    });
    return { removable: false, roleChangeable: others > 0 };
  }

  private async teammate(tx: Tx, organizationId: string, userId: string): Promise<User> {
    const user = await tx.user.findUnique({ where: { id: userId } });
    if (!user || user.organizationId !== organizationId || user.removedAt) {
      throw new AccountError("not_found", "No such teammate.");
    }
    return user;
  }

  /** Refuses to take the owner role from `userId` when no other owner would be left. */
  private async keepAnOwner(tx: Tx, organizationId: string, userId: string): Promise<void> {
    const others = await tx.user.count({
      where: { organizationId, role: "owner", removedAt: null, id: { not: userId } },
    });
    if (others === 0) {
      throw new AccountError(
        "conflict",
        "An organisation keeps at least one owner: make another owner first.",
      );
    }
  }

  /** An open invitation by its raw token (the accept page shows whom it is for), else null. */
  async findOpenInvitation(rawToken: string): Promise<(Invitation & { organization: Organization }) | null> {
    if (!rawToken || rawToken.length > 100) return null;
    const found = await this.prisma.invitation.findUnique({
      where: { tokenHash: sha256(rawToken) },
      include: { organization: true },
    });
    if (!found || found.acceptedAt || found.revokedAt) return null;
    return found.expiresAt.getTime() > this.clock.now().getTime() ? found : null;
  }

  /** Accepts an invitation: the user is created with the chosen password; the token is spent. */
  async acceptInvitation(input: { rawToken: string; name: string; password: string }): Promise<User> {
    const invitation = await this.findOpenInvitation(input.rawToken);
    if (!invitation)
      throw new AccountError("not_found", "This invitation is not valid (used, revoked or expired).");
    const problem = passwordProblem(input.password);
    if (problem) throw new AccountError("invalid_input", problem);
    const passwordHash = await hashPassword(input.password);
    return this.prisma.$transaction(async (tx) => {
      // Spent first, conditionally: two accepts of one link cannot both create a user.
      const spent = await tx.invitation.updateMany({
        where: { id: invitation.id, acceptedAt: null },
        data: { acceptedAt: this.clock.now() },
      });
      if (spent.count !== 1) throw new AccountError("not_found", "This invitation was already used.");
      if (await tx.user.findUnique({ where: { email: invitation.email } })) {
        throw new AccountError("conflict", `A user with e-mail ${invitation.email} already exists.`);
      }
      return tx.user.create({
        data: {
          organizationId: invitation.organizationId,
          email: invitation.email,
          name: input.name.trim().slice(0, 100) || invitation.email.split("@")[0]!,
          role: invitation.role,
          passwordHash,
        },
      });
    });
  }

  /** Sessions are stored only at sign-in: a visitor's CSRF token is a cookie (src/http/sessions.ts). */
  private async open(userId: string, lifetimeMs: number): Promise<OpenedSession> {
    const rawId = randomToken();
    const csrfToken = randomToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + lifetimeMs);
    await this.prisma.dashboardSession.create({
      data: { id: sha256(rawId), userId, csrfToken, createdAt: now, lastSeenAt: now, expiresAt },
    });
    return { rawId, csrfToken, expiresAt };
  }
}

/** Where an invitation is accepted, relative to the deployment's base URL. */
export function invitationPath(rawToken: string): string {
  return `/dashboard/invitations/${rawToken}`;
}

function sessionPrincipal(user: User & { organization: Organization }, sessionId: string): Principal {
  const { organization, ...person } = user;
  return { apiKey: null, sessionId, user: person, organization, plan: planOf(organization) };
}
