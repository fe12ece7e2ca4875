import { ConfigError } from "../config";
import { DataFolderHeldError } from "../db/data-folder-lock";
import { AccountError } from "../domain/accounts/accounts.service";
import { runCli, UsageError } from "./index";

/** Exit codes: 0 done, 1 unexpected failure, 2 a problem the operator can fix (usage, input, config). */
export async function main(argv: string[]): Promise<never> {
  try {
    process.exit(await runCli(argv));
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof AccountError ||
      error instanceof ConfigError ||
      error instanceof DataFolderHeldError
    ) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  }
}
