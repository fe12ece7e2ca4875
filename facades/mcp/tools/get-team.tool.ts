import { z } from "zod";
import { McpTeamDocument } from "../../generated/operations";
import { answer, defineTool, refusalOf } from "../tool";

const ROLES = ["owner", "member"] as const;

const output = z.object({
  organization: z.object({
    name: z.string(),
    plan: z.string().describe("Plan code, e.g. professional"),
    planName: z.string(),
  }),
  members: z
    .array(
      z.object({
        name: z.string(),
        email: z.string(),
        role: z.enum(ROLES),
        joinedAt: z.string().describe("ISO 8601 instant in UTC"),
        isYou: z.boolean().describe("The user whose API key is asking"),
      }),
    )
    .describe("Everyone in the organisation, earliest first"),
});

export const getTeam = defineTool({
  name: "get_team",
  title: "Team",
  description:
    "Your organisation, its plan and its members (name, e-mail, role: owner or member), marking the one whose API key is asking. Takes no arguments: the key decides the organisation.",
  input: z.object({}),
  output,
  async call(_args, context) {
    const result = await context.run(McpTeamDocument);
    if (!result.ok) return refusalOf(result);
    const { user, organization } = result.data.viewer;
    return answer({
      organization: {
        name: organization.name,
        plan: organization.plan.code,
        planName: organization.plan.name,
      },
      members: organization.users.map((u) => ({
        name: u.name,
        email: u.email,
        role: u.role,
        joinedAt: u.createdAt,
        isYou: u.id === user.id,
      })),
    });
  },
});
