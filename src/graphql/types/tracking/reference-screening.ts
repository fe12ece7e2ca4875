import { type ScreenedReference, screenReferenceList } from "../../../domain/references/reference-screening";
import { builder } from "../../builder";
import { publicError } from "../../errors";
import { INTERNAL } from "../../schema-visibility";
import { ReferenceTypeEnum } from "./reference-type";

const ScreeningVerdictEnum = builder.enumType("ScreeningVerdict", {
  values: {
    REFERENCE: { value: "reference", description: "A valid reference: tracking it is safe." },
    SUSPECT_CHECK_DIGIT: {
      value: "suspect_check_digit",
      description:
        "Valid as a bill of lading, but shaped like a container number whose ISO 6346 check digit does not match: ask before tracking.",
    },
    NOT_A_REFERENCE: {
      value: "not_a_reference",
      description:
        "Not a container, bill-of-lading or booking number (a word, a malformed number): never tracked.",
    },
  } as const,
});

const ScreenedReferenceRef = builder.objectRef<ScreenedReference>("ScreenedReference").implement({
  description: "One piece of a pasted list, read before tracking.",
  fields: (t) => ({
    input: t.exposeString("input", { description: "The piece as it was typed." }),
    reference: t.exposeString("reference", {
      nullable: true,
      description: "The form it would be tracked under; null when it is not a reference.",
    }),
    type: t.field({ type: ReferenceTypeEnum, nullable: true, resolve: (r) => r.type }),
    verdict: t.field({ type: ScreeningVerdictEnum, resolve: (r) => r.verdict }),
    expectedCheckDigit: t.exposeInt("expectedCheckDigit", { nullable: true }),
    message: t.exposeString("message", {
      nullable: true,
      description: "Plain words naming what was typed and what is wrong; null for a valid reference.",
    }),
  }),
});

builder.queryFields((t) => ({
  screenReferences: t.field({
    type: [ScreenedReferenceRef],
    extensions: INTERNAL,
    description:
      "Reads a pasted list (one per line, or separated by commas, semicolons or spaces) without tracking anything: which pieces are references, which are not, and which look like a mistyped container number. At most 50.",
    authScopes: (_p, _a, ctx) => ctx.principal !== null,
    args: { text: t.arg.string({ required: true }) },
    resolve: (_root, { text }) => {
      const screened = screenReferenceList(text);
      if (!screened.ok) throw publicError("BAD_USER_INPUT", screened.message);
      return screened.items;
    },
  }),
}));
