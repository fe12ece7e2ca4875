import { builder } from "../../builder";
import { publicError } from "../../errors";
import { WRITE_SCOPES } from "../../scopes";

export const PartnerSourceRef = builder.prismaObject("PartnerSource", {
  description:
    "A party that is not a carrier and posts events about the organisation's boxes (a trucker's app, a TMS, a rail feed, a warehouse). Named on every event it sends; its signing secret is shown only when created or rotated.",
  fields: (t) => ({
    id: t.exposeID("id", {
      description: "Also the path of its signed inbound webhook: /api/inbound/partners/{id}.",
    }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    lastEventAt: t.expose("lastEventAt", {
      type: "DateTime",
      nullable: true,
      description: "When it last posted an event that was kept (applied or superseded); null before.",
    }),
  }),
});

const PartnerSourceWithSecretRef = builder
  .objectRef<{ source: { id: string }; signingSecret: string }>("PartnerSourceWithSecret")
  .implement({
    fields: (t) => ({
      source: t.prismaField({
        type: "PartnerSource",
        resolve: (q, p, _a, ctx) =>
          ctx.services.db.prisma.partnerSource.findUniqueOrThrow({ ...q, where: { id: p.source.id } }),
      }),
      signingSecret: t.exposeString("signingSecret", {
        description:
          'psec_...: shown this once. The partner signs its webhook with it: X-Quayside-Signature = "v1=" + hex HMAC-SHA256 of "<X-Quayside-Timestamp>.<raw body>".',
      }),
    }),
  });

export const partnerSourceNotFound = () =>
  publicError("NOT_FOUND", "Your organisation has no partner source with this id.");

builder.queryFields((t) => ({
  partnerSources: t.withAuth({ developerMode: true }).prismaField({
    type: ["PartnerSource"],
    nullable: true,
    extensions: { listSize: 50 },
    description: "The organisation's partner sources, oldest first.",
    resolve: (q, _r, _a, ctx) =>
      ctx.services.db.prisma.partnerSource.findMany({
        ...q,
        where: { organizationId: ctx.principal.organization.id, removedAt: null },
        orderBy: { createdAt: "asc" },
      }),
  }),
}));

builder.mutationFields((t) => ({
  createPartnerSource: t.withAuth(WRITE_SCOPES).field({
    type: PartnerSourceWithSecretRef,
    nullable: true,
    description: "Adds a partner source; its signing secret is in the answer, this once.",
    args: {
      name: t.arg.string({
        required: true,
        description: 'Shown on its events, e.g. "Rotterdam Drayage BV".',
      }),
    },
    resolve: async (_r, { name }, ctx) => {
      const created = await ctx.services.partners.create(ctx.principal.organization.id, name);
      if ("kind" in created)
        throw publicError("BAD_USER_INPUT", created.reason, { reason: "invalid_partner_source" });
      return created;
    },
  }),
  rotatePartnerSourceSecret: t.withAuth(WRITE_SCOPES).field({
    type: PartnerSourceWithSecretRef,
    nullable: true,
    description: "A new signing secret; the old one stops working at once.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const rotated = await ctx.services.partners.rotateSecret(ctx.principal.organization.id, String(id));
      if (!rotated) throw partnerSourceNotFound();
      return rotated;
    },
  }),
  removePartnerSource: t.withAuth(WRITE_SCOPES).prismaField({
    type: "PartnerSource",
    nullable: true,
    description: "The source can post no more; the events it sent stay on the timelines.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_q, _r, { id }, ctx) => {
      const removed = await ctx.services.partners.remove(ctx.principal.organization.id, String(id));
      if (!removed) throw partnerSourceNotFound();
      return removed;
    },
  }),
}));
