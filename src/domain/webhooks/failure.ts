import { ACK_TIMEOUT_MS } from "./sender";

/**
 * Why an attempt failed, in words the endpoint's owner can act on: the stored error is what the
 * network stack said (`connect ECONNREFUSED 10.0.0.5:443`), which tells a developer little and a
 * forwarder nothing. Null for an acknowledged attempt.
 */
export function attemptFailure(attempt: {
  responseStatus: number | null;
  error: string | null;
}): string | null {
  const status = attempt.responseStatus;
  if (status !== null) {
    if (status >= 200 && status < 300) return null;
    if (status >= 300 && status < 400)
      return `The endpoint answered with a redirect (HTTP ${status}); webhooks never follow redirects, so register the final address.`;
    if (status === 401 || status === 403)
      return `The endpoint refused the delivery (HTTP ${status}): check that it accepts our requests and verifies the signature with the current secret.`;
    if (status === 404 || status === 405 || status === 410)
      return `The endpoint has no handler at that address (HTTP ${status}): check the URL's path.`;
    if (status === 408 || status === 429)
      return `The endpoint was too busy to take the delivery (HTTP ${status}); it is tried again.`;
    if (status >= 400 && status < 500)
      return `The endpoint rejected the delivery (HTTP ${status}): its code did not accept the request.`;
    return `The endpoint's server failed while handling the delivery (HTTP ${status}).`;
  }
  const error = attempt.error ?? "";
  if (error.startsWith("blocked:"))
    return `Quayside does not send to this address: ${error.slice("blocked:".length).trim()}.`;
  if (/no answer within/.test(error) || /ETIMEDOUT|timeout/i.test(error))
    return `The endpoint did not answer within ${ACK_TIMEOUT_MS / 1000} seconds.`;
  if (/ECONNREFUSED/.test(error))
    return "Nothing answered at the endpoint's address: its server refused the connection (is it running, on that port?).";
  if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(error))
    return "The endpoint's host name could not be found (check the spelling and its DNS record).";
  if (/ECONNRESET|socket hang up|EPIPE/.test(error))
    return "The endpoint's server closed the connection before answering.";
  if (/EHOSTUNREACH|ENETUNREACH/.test(error))
    return "The endpoint's address cannot be reached from Quayside.";
  if (/certificate|CERT_|SSL|TLS|self[- ]signed/i.test(error))
    return "The endpoint's HTTPS certificate was not accepted (expired, self-signed or for another name).";
  return "The delivery could not reach the endpoint.";
}
