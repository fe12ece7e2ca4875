import type { DeliverySignal, EndpointClaim } from "../domain/webhooks/delivery.service";
import type { WebhooksService } from "../domain/webhooks/webhooks.service";
import type { Logger } from "../observability/logger";
import { inSpan } from "../observability/tracing";

/** Endpoints this process serves at once (one lane each); a lane holds one attempt at a time. */
export const DELIVERY_LANES = 32;
/** Lanes one organisation may hold in this process, so its endpoints never take them all. */
export const LANES_PER_ORGANIZATION = 8;

/**
 * Webhook delivery as independent lanes, one per leased endpoint. Whenever lanes are free (every
 * `intervalMs`, and at once when a lane ends with more due) it claims endpoints for them; a lane ends
 * on its own, so a slow endpoint never holds back a claim or another endpoint: nothing waits for a
 * whole batch. `stop` lets each lane finish its attempt in flight (at most the 10 s deadline), record
 * it and give its lease back.
 */
export class WebhookDispatcher {
  private readonly lanes = new Map<string, { organizationId: string; done: Promise<void> }>();
  private readonly signal: DeliverySignal = { stopping: false };
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;

  constructor(
    private readonly webhooks: Pick<WebhooksService, "claimDue" | "serve">,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.fill(), this.intervalMs);
    this.timer.unref();
    this.fill();
  }

  /**
   * Tests and the benchmark: claims and serves until nothing is due (a lane's attempts make their
   * deliveries not due, so this ends), and reports that nothing is left.
   */
  async runOnce(): Promise<{ full: boolean }> {
    for (let round = 0; round < 100; round++) {
      const claims = await this.webhooks.claimDue(DELIVERY_LANES);
      if (claims.length === 0) break;
      const served = await Promise.all(claims.map((claim) => this.webhooks.serve(claim, this.signal)));
      if (!served.some((s) => s.more) && claims.length < DELIVERY_LANES) break;
    }
    return { full: false };
  }

  /** Claims endpoints for the free lanes; a call while a claim runs asks for another after it. */
  private fill(): void {
    if (this.signal.stopping) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimFreeLanes()
      .catch((error: unknown) =>
        this.logger.error({ err: error, worker: "webhooks" }, "Claiming webhook deliveries failed"),
      )
      .finally(() => {
        this.claiming = undefined;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.fill();
        }
      });
  }

  private async claimFreeLanes(): Promise<void> {
    const free = DELIVERY_LANES - this.lanes.size;
    if (free <= 0) return;
    const held = new Map<string, number>();
    for (const { organizationId } of this.lanes.values())
      held.set(organizationId, (held.get(organizationId) ?? 0) + 1);
    const claims = await this.webhooks.claimDue(free, { perOrganization: LANES_PER_ORGANIZATION, held });
    for (const claim of claims) this.launch(claim);
    // Every free lane found work: more is probably waiting.
    if (claims.length === free) this.claimAgain = true;
  }

  private launch(claim: EndpointClaim): void {
    // A lane is a trace of its own (`job webhooks`), each attempt a `webhook.deliver` span in it.
    const done = inSpan(
      "job webhooks",
      {
        root: true,
        attributes: {
          "quayside.job": "webhooks",
          "quayside.webhook.endpoint_id": claim.endpointId,
          "quayside.webhook.claimed": claim.deliveries.length,
        },
      },
      () => this.webhooks.serve(claim, this.signal),
    )
      .then(
        ({ more }) => more,
        (error: unknown) => {
          this.logger.error(
            { err: error, endpointId: claim.endpointId },
            "Webhook lane failed; its deliveries are sent again after the lease",
          );
          return false;
        },
      )
      .then((more) => {
        this.lanes.delete(claim.endpointId);
        if (more) this.fill();
      });
    this.lanes.set(claim.endpointId, { organizationId: claim.organizationId, done });
  }

  async stop(): Promise<void> {
    this.signal.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.claiming;
    await Promise.all([...this.lanes.values()].map((lane) => lane.done));
  }
}
