import { AccountsService } from "../../src/domain/accounts/accounts.service";
import { SlotsService } from "../../src/domain/tracking/slots.service";
import { ApiCallsService } from "../../src/domain/usage/api-calls.service";
import type { PrismaClient } from "../../src/generated/prisma/client";
import { systemClock } from "../../src/lib/clock";
import type { PrismaWorkName } from "../scenarios";

/**
 * The database work a scenario costs the service, done directly: no gate, no rate window, no
 * GraphQL, no logging or metrics. It calls the service's own domain services (the key lookup is
 * `AccountsService.authenticate`: the key by hash joined with its user and organisation, and the
 * last-used write at most once a minute per key), so it follows the service when a query changes;
 * when a route starts doing more database work, its entry here must grow with it. Each returns false
 * when the key is refused, which the route answers with a 401 (counted as non-2xx).
 */
export interface PrismaWorkContext {
  prisma: PrismaClient;
  accounts: AccountsService;
  apiCalls: ApiCallsService;
  slots: SlotsService;
}

export type PrismaWork = (ctx: PrismaWorkContext, rawKey: string) => Promise<boolean>;

export function prismaWorkContext(prisma: PrismaClient): PrismaWorkContext {
  return {
    prisma,
    accounts: new AccountsService(prisma, systemClock),
    apiCalls: new ApiCallsService(prisma, systemClock),
    slots: new SlotsService(prisma, systemClock),
  };
}

export const PRISMA_WORK: Readonly<Record<PrismaWorkName, PrismaWork>> = {
  "key-lookup": async ({ accounts }, rawKey) => (await accounts.authenticate(rawKey)).ok,
  // `viewer { organization }` reads the organisation again by id (every scalar column, as Pothos asks).
  "key-lookup+organization": async ({ prisma, accounts }, rawKey) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const organization = await prisma.organization.findUnique({
      where: { id: authentication.principal.organization.id },
    });
    return organization !== null;
  },
  // Every admitted compat call is counted (the CompatCall operation: an upsert of the month's row)
  // and answers the month's usage with the organisation's slots (two counts).
  "key-lookup+compat-call": async ({ accounts, apiCalls, slots }, rawKey) => {
    const authentication = await accounts.authenticate(rawKey);
    if (!authentication.ok) return false;
    const { organization } = authentication.principal;
    await apiCalls.record(organization.id, "compat");
    await slots.usage(organization);
    return true;
  },
};
