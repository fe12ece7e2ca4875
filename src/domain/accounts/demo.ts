import { randomBytes } from "node:crypto";
import type { AccountsService } from "./accounts.service";
import { FEATURES } from "./plans";

export const DEMO_ORGANIZATION = "Demo";
export const DEMO_USER_EMAIL = "demo@quayside.local";

export type DemoOutcome =
  | { kind: "created"; organizationId: string; rawKey: string; password?: string }
  | { kind: "pinned-key"; organizationId: string; rawKey: string; created: boolean; password?: string }
  | { kind: "existing"; organizationId: string | null };

/**
 * A fresh install gets a demo organisation (business: every capability, disruptions included;
 * developer mode on, every feature on, the operator of the deployment) and a key, so `npm start` is immediately usable. With `pinnedKey` (QUAYSIDE_DEMO_KEY) the key is exactly
 * that value, created for the demo user if it is not there yet, so scripts can know it in advance.
 */
export async function ensureDemoAccount(accounts: AccountsService, pinnedKey?: string): Promise<DemoOutcome> {
  const organizations = await accounts.listOrganizations();
  let demo = organizations.find((o) => o.name === DEMO_ORGANIZATION);
  if (organizations.length > 0 && !demo) return { kind: "existing", organizationId: null };

  if (!demo) {
    demo = await accounts.createOrganization({
      name: DEMO_ORGANIZATION,
      // Business: the plan that shows every capability a newcomer came to evaluate (issue 36).
      plan: "business",
      developerMode: true,
      // Whoever ran `npm start` on a fresh database runs the deployment.
      operator: true,
      features: Object.fromEntries(FEATURES.map((f) => [f, true])),
    });
    // A dashboard password for the demo owner, printed once beside the key (like the key).
    const password = randomBytes(12).toString("base64url");
    const user = await accounts.createUser({
      organizationId: demo.id,
      email: DEMO_USER_EMAIL,
      name: "Demo",
      role: "owner",
      password,
    });
    const { rawKey } = await accounts.createApiKey({ userId: user.id, name: "Demo key", rawKey: pinnedKey });
    return pinnedKey
      ? { kind: "pinned-key", organizationId: demo.id, rawKey, created: true, password }
      : { kind: "created", organizationId: demo.id, rawKey, password };
  }

  if (pinnedKey) {
    const user = await accounts.findUser(DEMO_USER_EMAIL);
    const created = Boolean(user) && !(await accounts.hasKey(pinnedKey));
    if (user && created) {
      await accounts.createApiKey({
        userId: user.id,
        name: "Demo key (QUAYSIDE_DEMO_KEY)",
        rawKey: pinnedKey,
      });
    }
    return { kind: "pinned-key", organizationId: demo.id, rawKey: pinnedKey, created };
  }
  return { kind: "existing", organizationId: demo.id };
}

/**
 * What `serve` tells the operator about the demo key. A key is printed only on the start that created
 * it: start-up output ends up in service logs and terminal scrollback, and a key printed on every
 * restart would be in all of them. Later starts say where a key comes from instead.
 */
export function demoAnnouncement(outcome: DemoOutcome | null): string | undefined {
  if (!outcome) return undefined;
  if (outcome.kind === "created" || (outcome.kind === "pinned-key" && outcome.created)) {
    const key = `Demo API key (organisation "Demo", plan business): ${outcome.rawKey}`;
    return outcome.password
      ? `${key}\nDemo sign-in at /dashboard: ${DEMO_USER_EMAIL} with password ${outcome.password}`
      : key;
  }
  if (outcome.kind === "pinned-key") {
    return "Demo API key: the value of QUAYSIDE_DEMO_KEY (set up on an earlier start, so not printed again).";
  }
  return outcome.organizationId
    ? `Demo organisation already set up; its key was printed only on the first start. Make another with: quayside keys create --user ${DEMO_USER_EMAIL}`
    : undefined;
}
