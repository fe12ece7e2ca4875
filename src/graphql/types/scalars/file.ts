import { builder } from "../../builder";
import { publicError } from "../../errors";

builder.scalarType("File", {
  description:
    "A file sent as a part of a multipart/form-data request, following the GraphQL multipart request specification (operations, map, then the file parts). Input only.",
  serialize: () => {
    throw new Error("File is an input type");
  },
  parseValue: (value) => {
    // Yoga's multipart parser hands over its own File implementation, not the global class.
    if (isFile(value)) return value;
    throw publicError(
      "BAD_USER_INPUT",
      "A File variable must be sent as a part of a multipart/form-data request (GraphQL multipart request specification).",
    );
  },
});

function isFile(value: unknown): value is File {
  if (typeof value !== "object" || value === null) return false;
  const file = value as Partial<File>;
  return (
    typeof file.arrayBuffer === "function" && typeof file.name === "string" && typeof file.size === "number"
  );
}
