import { AccountError } from "../../../domain/accounts/accounts.service";
import { publicError } from "../../errors";

/** An AccountError of the people service as the coded error a client reads. */
export async function mapPeopleErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AccountError) {
      throw publicError(error.code === "not_found" ? "NOT_FOUND" : "BAD_USER_INPUT", error.message);
    }
    throw error;
  }
}
