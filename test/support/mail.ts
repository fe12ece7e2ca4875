import type { PlanCode } from "../../src/generated/prisma/enums";
import type { Clock } from "../../src/lib/clock";
import { type OrgWithKey, startTestApp, type TestApp } from "./app";
import { type SmtpReceiver, startSmtpServer } from "./smtp";

/** The app a mail test reads: its mail reaches `smtp`, sent for `org`'s people. */
export interface MailTestApp {
  app: TestApp;
  smtp: SmtpReceiver;
  org: OrgWithKey;
}

/**
 * The app on a manual clock, mailing through a real SMTP server on loopback, with the embedded
 * simulator as the carriers and an organisation to follow shipments. No background workers: the test
 * runs each round itself (`drain`), so what is mailed follows the clock and nothing else. One carrier
 * attempt, so a simulated refusal answers at once instead of after retries.
 */
export async function startMailTestApp({
  clock,
  env = {},
  plan,
}: {
  clock: Clock;
  /** Added to the mail set-up: the public URL mail links to, the sender. */
  env?: Record<string, string>;
  plan?: PlanCode;
}): Promise<MailTestApp> {
  const smtp = await startSmtpServer();
  const app = await startTestApp({
    clock,
    env: {
      QUAYSIDE_WORKERS: "off",
      QUAYSIDE_SIMULATOR: "embedded",
      QUAYSIDE_SIMULATOR_PORT: "0",
      QUAYSIDE_CARRIER_ATTEMPTS: "1",
      SMTP_URL: smtp.url,
      ...env,
    },
  });
  const org = await app.fixtures.organization(plan ? { plan } : {});
  return { app, smtp, org };
}

/** Runs a worker's rounds until one finds less than a full batch (at most `rounds`). */
export async function drain(worker: { runOnce(): Promise<{ full: boolean }> }, rounds = 50): Promise<void> {
  for (let i = 0; i < rounds && (await worker.runOnce()).full; i++);
}
