/**
 * NMEA 0183 AIS sentences (`!AIVDM`/`!AIVDO`, any talker), before payload decoding: checksum, IEC 61162-1
 * tag blocks (`\s:rORBCOMM,c:1426..*5B\!AIVDM...`, which feed providers put in front), and the grouping
 * of multi-sentence messages. Pure: the ingester feeds lines, these functions say what they are.
 */

export interface AisSentence {
  /** The sentence without any tag block, from `!` to the checksum. */
  raw: string;
  talker: string;
  /** VDM (other ships) or VDO (own ship). */
  formatter: "VDM" | "VDO";
  fragmentCount: number;
  fragmentNumber: number;
  /** Sequential message id tying the fragments of one message together; "" for single sentences. */
  sequenceId: string;
  channel: string;
  payload: string;
  fillBits: number;
}

export type SentenceReading =
  | { ok: true; sentence: AisSentence }
  | { ok: false; reason: "not_ais" | "malformed" | "bad_checksum"; line: string };

/** XOR of the characters between the start delimiter and `*`, two upper-case hex digits. */
export function nmeaChecksum(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return sum.toString(16).toUpperCase().padStart(2, "0");
}

/** `!AIVDM,...` with its checksum appended (for fixtures and tests). */
export function withChecksum(sentenceWithoutChecksum: string): string {
  const body = sentenceWithoutChecksum.replace(/^[!$]/, "");
  return `${sentenceWithoutChecksum}*${nmeaChecksum(body)}`;
}

const SENTENCE =
  /^[!$]([A-Z]{2})(VDM|VDO),(\d),(\d),(\d?),([A-Z0-9]?),([0-9:;<=>?@A-W`a-w]*),([0-5])\*([0-9A-Fa-f]{2})$/;

export function readSentence(input: string): SentenceReading {
  let line = input.trim();
  // A tag block: "\<fields>*hh\" before the sentence.
  if (line.startsWith("\\")) {
    const end = line.indexOf("\\", 1);
    if (end < 0) return { ok: false, reason: "malformed", line: input };
    line = line.slice(end + 1);
  }
  const start = line.search(/[!$]/);
  if (start < 0 || !/^[!$][A-Z]{2}VD[MO],/.test(line.slice(start))) {
    return { ok: false, reason: "not_ais", line: input };
  }
  line = line.slice(start);
  const match = SENTENCE.exec(line);
  if (!match) return { ok: false, reason: "malformed", line: input };
  const [, talker, formatter, count, number, sequenceId, channel, payload, fillBits, checksum] = match;
  const star = line.lastIndexOf("*");
  if (nmeaChecksum(line.slice(1, star)) !== checksum!.toUpperCase()) {
    return { ok: false, reason: "bad_checksum", line: input };
  }
  const fragmentCount = Number(count);
  const fragmentNumber = Number(number);
  if (fragmentCount < 1 || fragmentNumber < 1 || fragmentNumber > fragmentCount) {
    return { ok: false, reason: "malformed", line: input };
  }
  return {
    ok: true,
    sentence: {
      raw: line,
      talker: talker!,
      formatter: formatter as "VDM" | "VDO",
      fragmentCount,
      fragmentNumber,
      sequenceId: sequenceId ?? "",
      channel: channel ?? "",
      payload: payload!,
      fillBits: Number(fillBits),
    },
  };
}

/**
 * Puts multi-sentence messages back together. Fragments of one message share the fragment count,
 * the sequence id and the channel; messages on different ids may interleave. A group missing a fragment
 * is dropped when a new first fragment reuses its id or after `maxAgeMs`.
 */
export class FragmentAssembler {
  private readonly pending = new Map<string, { parts: AisSentence[]; startedAt: number }>();
  dropped = 0;

  constructor(private readonly maxAgeMs = 10_000) {}

  /** Returns the complete message (its sentences in order) once the last fragment arrives. */
  push(sentence: AisSentence, nowMs: number): AisSentence[] | null {
    this.expire(nowMs);
    if (sentence.fragmentCount === 1) return [sentence];
    const key = `${sentence.fragmentCount}|${sentence.sequenceId}|${sentence.channel}`;
    let group = this.pending.get(key);
    if (sentence.fragmentNumber === 1) {
      if (group) this.dropped++;
      group = { parts: [], startedAt: nowMs };
      this.pending.set(key, group);
    }
    if (!group || group.parts.length !== sentence.fragmentNumber - 1) {
      // Out of order or a lost first fragment: the message cannot be rebuilt.
      if (group) {
        this.pending.delete(key);
        this.dropped++;
      }
      return null;
    }
    group.parts.push(sentence);
    if (group.parts.length < sentence.fragmentCount) return null;
    this.pending.delete(key);
    return group.parts;
  }

  private expire(nowMs: number): void {
    for (const [key, group] of this.pending) {
      if (nowMs - group.startedAt > this.maxAgeMs) {
        this.pending.delete(key);
        this.dropped++;
      }
    }
  }
}
