/**
 * Issue 43 item 6: ten questions a new user of the workspace asks, each answered first by its article
 * (before these articles, the e-mail and demurrage questions had none and "notifications", "email" and
 * "invite a teammate" found nothing).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { projectHelpIndex } from "../../../src/domain/help/help-index";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

const QUESTIONS: [question: string, slug: string][] = [
  ["How do I get e-mail alerts when my container's ETA changes?", "notifications"],
  ["notifications", "notifications"],
  ["email", "notifications"],
  ["How do I unsubscribe from these e-mails?", "notifications"],
  ["invite a teammate", "team-and-invitations"],
  ["remove a user who left my team", "team-and-invitations"],
  ["What is the last free day and how is demurrage counted?", "demurrage-and-last-free-day"],
  ["upload a packing list document to a shipment", "documents"],
  ["open a support ticket", "tickets-and-quotes"],
  ["ask for a freight quote for a 40HQ", "tickets-and-quotes"],
];

describe("help for the workspace", () => {
  it("answers each of the ten questions with its article first", async () => {
    const index = await projectHelpIndex(ROOT);
    const misses = QUESTIONS.flatMap(([question, slug]) => {
      const first = index.query(question, 3)[0]?.slug;
      return first === slug ? [] : [`${question} -> ${first ?? "nothing"} (expected ${slug})`];
    });
    expect(misses, misses.join("\n")).toEqual([]);
  });
});
