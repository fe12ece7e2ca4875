/** The part of newman's API the Postman test uses (the package ships no types). */
declare module "newman" {
  export interface RunSummary {
    run: {
      failures: { error: { message: string }; source?: { name?: string } }[];
      executions: { item: { name: string }; response?: { code: number } }[];
      stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    };
  }
  interface RunOptions {
    collection: unknown;
    envVar?: { key: string; value: string }[];
    folder?: string | string[];
    reporters?: string | string[];
    timeoutRequest?: number;
  }
  function run(options: RunOptions, callback: (error: Error | null, summary: RunSummary) => void): void;
  export default { run };
}
