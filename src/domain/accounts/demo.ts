import type { AccountsService } from "./accounts.service";
import { FEATURES } from "./plans";

export const DEMO_ORGANIZATION = "Demo";
export const DEMO_USER_EMAIL = "demo@quayside.local";

export type DemoOutcome =
  | { kind: "created"; organizationId: string; rawKey: string }
  | { kind: "pinned-key"; organizationId: string; rawKey: string }
  | { kind: "existing"; organizationId: string | null };

/**
 * A fresh install gets a demo organisation (professional, developer mode on, every feature on) and a
 * key, so `npm start` is immediately usable. With `pinnedKey` (QUAYSIDE_DEMO_KEY) the key is exactly
 * that value, created for the demo user if it is not there yet, so scripts can know it in advance.
 */
export async function ensureDemoAccount(accounts: AccountsService, pinnedKey?: string): Promise<DemoOutcome> {
  const organizations = await accounts.listOrganizations();
  let demo = organizations.find((o) => o.name === DEMO_ORGANIZATION);
  if (organizations.length > 0 && !demo) return { kind: "existing", organizationId: null };

  if (!demo) {
    demo = await accounts.createOrganization({
      name: DEMO_ORGANIZATION,
      plan: "professional",
      developerMode: true,
      features: Object.fromEntries(FEATURES.map((f) => [f, true])),
    });
    const user = await accounts.createUser({
      organizationId: demo.id,
      email: DEMO_USER_EMAIL,
      name: "Demo",
      role: "owner",
    });
    const { rawKey } = await accounts.createApiKey({ userId: user.id, name: "Demo key", rawKey: pinnedKey });
    return { kind: "created", organizationId: demo.id, rawKey };
  }

  if (pinnedKey) {
    const user = await accounts.findUser(DEMO_USER_EMAIL);
    if (user && !(await accounts.hasKey(pinnedKey))) {
      await accounts.createApiKey({
        userId: user.id,
        name: "Demo key (QUAYSIDE_DEMO_KEY)",
        rawKey: pinnedKey,
      });
    }
    return { kind: "pinned-key", organizationId: demo.id, rawKey: pinnedKey };
  }
  return { kind: "existing", organizationId: demo.id };
}
