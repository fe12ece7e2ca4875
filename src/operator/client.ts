import { request } from "node:http";
import type { OperatorAddress } from "../db/data-folder-lock";
import { AccountError } from "../domain/accounts/accounts.service";
import type { CommandResult, OperatorCommand } from "./commands";
import { OPERATOR_COMMAND_PATH } from "./endpoint";

/** The server stopped (or never finished starting) between reading its lock and asking it. */
export class OperatorUnreachableError extends Error {}

/** Runs a command inside the running server that holds the data folder. */
export function sendOperatorCommand(
  address: OperatorAddress,
  token: string,
  command: OperatorCommand,
): Promise<CommandResult> {
  const body = JSON.stringify(command);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...("socketPath" in address ? { socketPath: address.socketPath } : address),
        path: OPERATOR_COMMAND_PATH,
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.once("error", reject);
        res.once("end", () => {
          const answer = parseAnswer(Buffer.concat(chunks).toString("utf8"));
          if (res.statusCode === 200 && typeof answer?.human === "string")
            return resolve({ human: answer.human, data: answer.data });
          reject(refusal(res.statusCode ?? 0, answer));
        });
      },
    );
    req.once("timeout", () =>
      req.destroy(new OperatorUnreachableError("The running server did not answer.")),
    );
    req.once("error", (error) =>
      reject(
        error instanceof OperatorUnreachableError
          ? error
          : new OperatorUnreachableError(
              `The running server's operator endpoint did not answer (${(error as NodeJS.ErrnoException).code ?? error.message}); if it just stopped, run the command again.`,
            ),
      ),
    );
    req.end(body);
  });
}

function parseAnswer(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function refusal(status: number, answer: Record<string, unknown> | undefined): Error {
  const message =
    typeof answer?.message === "string" ? answer.message : `The running server answered ${status}.`;
  const code = answer?.accountError;
  if (code === "not_found" || code === "conflict" || code === "invalid_input")
    return new AccountError(code, message);
  // The command was refused as given (the same check the CLI runs first): the operator can fix it.
  if (status >= 400 && status < 500 && answer?.error === "invalid_parameter")
    return new AccountError("invalid_input", message);
  return new Error(message);
}
