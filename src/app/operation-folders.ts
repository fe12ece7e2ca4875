import { fileURLToPath } from "node:url";

/**
 * Where the facades keep their persisted operations, one `.graphql` file per operation, and the
 * fragments several of them share (one per file, named like the fragment). The executor is handed
 * these at start-up; codegen reads the same folders, so the types and what runs never disagree.
 */
export const OPERATION_FOLDERS = {
  operations: [
    "../../facades/v1/operations",
    "../../facades/compat/operations",
    "../../facades/mcp/operations",
    "../../facades/share/operations",
    "../../facades/dashboard/operations",
  ].map((dir) => fileURLToPath(new URL(dir, import.meta.url))),
  fragments: fileURLToPath(new URL("../../facades/fragments", import.meta.url)),
} as const;
