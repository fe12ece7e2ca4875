/**
 * The team through GraphQL: an owner changes a teammate's role and removes a teammate. The
 * organisation always keeps an owner, nobody removes themselves, a member manages nobody, another
 * organisation's person is not found, and a removed teammate's keys stop working while the shipments
 * they added stay with the organisation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATOR_ENV } from "../compat/support";
import { graphql, type OrgWithKey, startTestApp, type TestApp } from "../support/app";
import { simulatedContainers } from "../support/references";

let app: TestApp;
let owner: OrgWithKey;

const ROLE = `mutation ($userId: ID!, $role: UserRole!) { changeTeammateRole(userId: $userId, role: $role) { id role } }`;
const REMOVE = `mutation ($userId: ID!) { removeTeammate(userId: $userId) { id removedAt } }`;
const TEAM = `{ viewer { organization { users { id email role } } } }`;

const code = (body: { errors?: { extensions?: { code?: string } }[] }) => body.errors?.[0]?.extensions?.code;

beforeAll(async () => {
  app = await startTestApp({ env: SIMULATOR_ENV });
  owner = await app.fixtures.organization({ plan: "professional" });
}, 120_000);
afterAll(() => app?.stop());

describe("changeTeammateRole", () => {
  it("makes a member an owner and back", async () => {
    const mate = await app.fixtures.teammate(owner.organizationId);
    const up = await graphql(app, owner.key, ROLE, { userId: mate.userId, role: "owner" });
    expect(up.body.data).toEqual({ changeTeammateRole: { id: mate.userId, role: "owner" } });
    const down = await graphql(app, owner.key, ROLE, { userId: mate.userId, role: "member" });
    expect((down.body.data as any).changeTeammateRole.role).toBe("member");
  });

  it("keeps at least one owner", async () => {
    const alone = await app.fixtures.organization({ plan: "starter" });
    const refused = await graphql(app, alone.key, ROLE, { userId: alone.userId, role: "member" });
    expect(code(refused.body)).toBe("BAD_USER_INPUT");
    expect(refused.body.errors?.[0]?.message).toContain("at least one owner");
    const row = await app.services.db.prisma.user.findUniqueOrThrow({ where: { id: alone.userId } });
    expect(row.role).toBe("owner");
  });

  it("is for owners only, and another organisation's person is not found", async () => {
    const member = await app.fixtures.teammate(owner.organizationId);
    const asMember = await graphql(app, member.key, ROLE, { userId: owner.userId, role: "member" });
    expect(code(asMember.body)).toBe("OWNER_REQUIRED");
    const stranger = await app.fixtures.organization();
    const other = await graphql(app, owner.key, ROLE, { userId: stranger.userId, role: "member" });
    expect(code(other.body)).toBe("NOT_FOUND");
    const row = await app.services.db.prisma.user.findUniqueOrThrow({ where: { id: stranger.userId } });
    expect(row.role).toBe("owner");
  });
});

describe("removeTeammate", () => {
  it("revokes their keys, leaves the team list and keeps the shipments they added", async () => {
    const mate = await app.fixtures.teammate(owner.organizationId);
    const { known } = await simulatedContainers(app.simulator!.url, "MSCU", "MSCU", { known: 1 });
    const tracked = await fetch(`${app.url}/api/v1/container/${known[0]}?sealine=MSCU`, {
      headers: { authorization: `Bearer ${mate.key}` },
    });
    expect(tracked.status).toBe(200);
    const email = (await app.services.db.prisma.user.findUniqueOrThrow({ where: { id: mate.userId } })).email;

    const removed = await graphql(app, owner.key, REMOVE, { userId: mate.userId });
    expect((removed.body.data as any).removeTeammate.removedAt).toEqual(expect.any(String));
    const after = await fetch(`${app.url}/api/v1/shipments`, {
      headers: { authorization: `Bearer ${mate.key}` },
    });
    expect(after.status).toBe(401);
    const team = (await graphql(app, owner.key, TEAM)).body.data as any;
    expect(team.viewer.organization.users.map((u: { id: string }) => u.id)).not.toContain(mate.userId);
    // The box stays the organisation's.
    const list = await fetch(`${app.url}/api/v1/shipments`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    expect(JSON.stringify(await list.json())).toContain(known[0]!);
    // The address is free again: the person can be invited back.
    const invite = await graphql(
      app,
      owner.key,
      `mutation ($email: String!) { inviteTeammate(email: $email) { acceptPath } }`,
      { email },
    );
    expect(invite.body.errors).toBeUndefined();
    // Removing them twice finds nobody.
    expect(code((await graphql(app, owner.key, REMOVE, { userId: mate.userId })).body)).toBe("NOT_FOUND");
  });

  it("refuses removing yourself, and a member removes nobody", async () => {
    const self = await graphql(app, owner.key, REMOVE, { userId: owner.userId });
    expect(code(self.body)).toBe("BAD_USER_INPUT");
    const member = await app.fixtures.teammate(owner.organizationId);
    const other = await app.fixtures.teammate(owner.organizationId);
    expect(code((await graphql(app, member.key, REMOVE, { userId: other.userId })).body)).toBe(
      "OWNER_REQUIRED",
    );
    const row = await app.services.db.prisma.user.findUniqueOrThrow({ where: { id: other.userId } });
    expect(row.removedAt).toBeNull();
  });
});

describe("what the team page may offer (User.removableByViewer, User.roleChangeableByViewer)", () => {
  const RIGHTS = `{ viewer { organization { users { id removableByViewer roleChangeableByViewer } } } }`;
  const rightsOf = async (key: string) => {
    const res = await graphql(app, key, RIGHTS);
    expect(res.body.errors).toBeUndefined();
    const users = (res.body.data as any).viewer.organization.users as {
      id: string;
      removableByViewer: boolean;
      roleChangeableByViewer: boolean;
    }[];
    return new Map(users.map((u) => [u.id, [u.removableByViewer, u.roleChangeableByViewer]]));
  };

  it("says what the mutations would accept: others for an owner, themselves never removable, stepping down only beside another owner", async () => {
    const team = await app.fixtures.organization({ plan: "professional" });
    const mate = await app.fixtures.teammate(team.organizationId);
    // Alone as owner: the teammate is theirs to manage; their own role is not (the last owner).
    let rights = await rightsOf(team.key);
    expect(rights.get(team.userId)).toEqual([false, false]);
    expect(rights.get(mate.userId)).toEqual([true, true]);
    const lastOwner = await graphql(app, team.key, ROLE, { userId: team.userId, role: "member" });
    expect(code(lastOwner.body)).toBe("BAD_USER_INPUT");

    // With a second owner, the first may step down (the core accepts it), still not remove themselves.
    expect(
      (await graphql(app, team.key, ROLE, { userId: mate.userId, role: "owner" })).body.errors,
    ).toBeUndefined();
    rights = await rightsOf(team.key);
    expect(rights.get(team.userId)).toEqual([false, true]);
    expect(rights.get(mate.userId)).toEqual([true, true]);
    expect(code((await graphql(app, team.key, REMOVE, { userId: team.userId })).body)).toBe("BAD_USER_INPUT");
    const down = await graphql(app, team.key, ROLE, { userId: team.userId, role: "member" });
    expect((down.body.data as any).changeTeammateRole.role).toBe("member");

    // A member: nothing on anyone, which is what the mutations answer (OWNER_REQUIRED).
    const member = await app.fixtures.teammate(team.organizationId);
    rights = await rightsOf(member.key);
    expect([...rights.values()]).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    expect(code((await graphql(app, member.key, REMOVE, { userId: mate.userId })).body)).toBe(
      "OWNER_REQUIRED",
    );
  });
});

describe("User.isViewer", () => {
  it("is true on the asking user's own row only, for a member as for an owner", async () => {
    const team = await app.fixtures.organization({ plan: "professional" });
    const mate = await app.fixtures.teammate(team.organizationId);
    const QUERY = `{ viewer { organization { users { id isViewer } } } }`;
    for (const asker of [team, mate]) {
      const res = await graphql(app, asker.key, QUERY);
      const users = (res.body.data as any).viewer.organization.users as { id: string; isViewer: boolean }[];
      expect(users.filter((u) => u.isViewer).map((u) => u.id)).toEqual([asker.userId]);
      expect(users).toHaveLength(2);
    }
  });
});
