/**
 * The development corpus through the pure pipeline, with its misses: what to read while working on the
 * rules (`npx tsx bench/disruptions/dev-replay.ts`). It never replays the validation corpus: its
 * figures come from the benchmark run only, and its misses are not for reading while rules change.
 */
import { DEVELOPMENT_CORPUS as CORPUS } from "../../test/fixtures/disruptions/corpus-more";
import { corpusFigures } from "./metrics";
import { replayOffline } from "./offline";

const { observations, finals } = replayOffline(CORPUS);
const { notes, ...figures } = corpusFigures(CORPUS, observations, finals);
console.log(JSON.stringify(figures, null, 1));
for (const note of notes) console.log(note);
