import type { CarrierBias, EtaSource, HorizonBucket } from "./eta-model";

/**
 * The split-conformal recalibration and the carriers' measured bias, written by
 * `npx tsx bench/eta-calibration/calibrate.ts` from simulated voyages of the simulator's world (seed and
 * counts below) and never edited by hand. docs/eta-calibration.md tells how.
 */
export interface CalibrationCell {
  source: EtaSource;
  bucket: HorizonBucket;
  /** Calibration residuals (ATA minus the raw median) in the cell. */
  n: number;
  residualQ50Hours: number;
  residualQ80Hours: number;
  /** Coverage on the held-out voyages was inside the targets (p50 0.40-0.60, p80 0.72-0.88). */
  withinTarget: boolean;
}

export type CarrierBiasTable = Readonly<Record<string, Partial<Record<HorizonBucket, CarrierBias>>>>;

export interface CalibrationTable {
  seed: string;
  voyages: number;
  checkSeed: string;
  checkVoyages: number;
  /**
   * How much of its weight the model may take at each horizon of the carrier's ETA (0 to 1): chosen
   * offline as the share that gave the lowest error of the median on the calibration voyages, because
   * a carrier's revised ETA close to arrival is hard to beat and an unrevised one far out is not.
   */
  modelWeight: Partial<Record<HorizonBucket, number>>;
  cells: readonly CalibrationCell[];
  carrierBias: CarrierBiasTable;
}

export const CALIBRATION: CalibrationTable = {
  seed: "eta-calibration",
  voyages: 3000,
  checkSeed: "eta-calibration-check",
  checkVoyages: 1000,
  modelWeight: {
    le1d: 0,
    "1to3d": 1,
    "3to7d": 1,
    "7to14d": 1,
    gt14d: 1,
  },
  cells: [
    {
      source: "model",
      bucket: "3to7d",
      n: 12,
      residualQ50Hours: 2.94,
      residualQ80Hours: 72.94,
      withinTarget: false,
    },
    {
      source: "model",
      bucket: "7to14d",
      n: 62,
      residualQ50Hours: 1.7,
      residualQ80Hours: 5.72,
      withinTarget: false,
    },
    {
      source: "model",
      bucket: "gt14d",
      n: 28,
      residualQ50Hours: 2.63,
      residualQ80Hours: 7.18,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "1to3d",
      n: 7,
      residualQ50Hours: 22.13,
      residualQ80Hours: 26.79,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "3to7d",
      n: 24,
      residualQ50Hours: 12.96,
      residualQ80Hours: 20.34,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "7to14d",
      n: 48,
      residualQ50Hours: 22.22,
      residualQ80Hours: 27.67,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "gt14d",
      n: 31,
      residualQ50Hours: 39.4,
      residualQ80Hours: 59.95,
      withinTarget: false,
    },
    {
      source: "carrier",
      bucket: "le1d",
      n: 2803,
      residualQ50Hours: 0,
      residualQ80Hours: 0.08,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "1to3d",
      n: 2958,
      residualQ50Hours: -0.01,
      residualQ80Hours: 0.08,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "3to7d",
      n: 3051,
      residualQ50Hours: 0,
      residualQ80Hours: 0.1,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "7to14d",
      n: 2935,
      residualQ50Hours: 0,
      residualQ80Hours: 0.1,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "gt14d",
      n: 2246,
      residualQ50Hours: 0,
      residualQ80Hours: 0.12,
      withinTarget: true,
    },
  ],
  carrierBias: {
    CMDU: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 297,
      },
      "3to7d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 315,
      },
      "7to14d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 309,
      },
      gt14d: {
        medianHours: 0,
        q80Hours: 8.85,
        arrivals: 213,
      },
      le1d: {
        medianHours: 0.02,
        q80Hours: 0.1,
        arrivals: 283,
      },
    },
    COSU: {
      "1to3d": {
        medianHours: 0.02,
        q80Hours: 0.1,
        arrivals: 300,
      },
      "3to7d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 308,
      },
      "7to14d": {
        medianHours: 0.03,
        q80Hours: 0.12,
        arrivals: 306,
      },
      gt14d: {
        medianHours: 0.03,
        q80Hours: 0.15,
        arrivals: 228,
      },
      le1d: {
        medianHours: 0.02,
        q80Hours: 0.1,
        arrivals: 283,
      },
    },
    EGLV: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 301,
      },
      "3to7d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 304,
      },
      "7to14d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 296,
      },
      gt14d: {
        medianHours: 0,
        q80Hours: 1.07,
        arrivals: 227,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 279,
      },
    },
    HDMU: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.07,
        arrivals: 295,
      },
      "3to7d": {
        medianHours: -0.02,
        q80Hours: 0.08,
        arrivals: 312,
      },
      "7to14d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 299,
      },
      gt14d: {
        medianHours: 0.02,
        q80Hours: 23.08,
        arrivals: 232,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 283,
      },
    },
    HLCU: {
      "1to3d": {
        medianHours: -0.02,
        q80Hours: 0.08,
        arrivals: 295,
      },
      "3to7d": {
        medianHours: -0.02,
        q80Hours: 0.08,
        arrivals: 314,
      },
      "7to14d": {
        medianHours: -0.02,
        q80Hours: 0.1,
        arrivals: 300,
      },
      gt14d: {
        medianHours: 0.02,
        q80Hours: 0.12,
        arrivals: 246,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 284,
      },
    },
    MAEU: {
      "1to3d": {
        medianHours: 0.02,
        q80Hours: 0.1,
        arrivals: 299,
      },
      "3to7d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 321,
      },
      "7to14d": {
        medianHours: 0.02,
        q80Hours: 0.12,
        arrivals: 302,
      },
      gt14d: {
        medianHours: 0.03,
        q80Hours: 0.12,
        arrivals: 216,
      },
      le1d: {
        medianHours: 0.03,
        q80Hours: 0.1,
        arrivals: 284,
      },
    },
    MSCU: {
      "1to3d": {
        medianHours: -0.02,
        q80Hours: 0.08,
        arrivals: 298,
      },
      "3to7d": {
        medianHours: -0.05,
        q80Hours: 0.08,
        arrivals: 305,
      },
      "7to14d": {
        medianHours: -0.05,
        q80Hours: 0.12,
        arrivals: 309,
      },
      gt14d: {
        medianHours: -0.05,
        q80Hours: 10,
        arrivals: 236,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 272,
      },
    },
    ONEY: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 292,
      },
      "3to7d": {
        medianHours: -0.02,
        q80Hours: 0.1,
        arrivals: 309,
      },
      "7to14d": {
        medianHours: 0.02,
        q80Hours: 0.12,
        arrivals: 300,
      },
      gt14d: {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 226,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 285,
      },
    },
    YMLU: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 297,
      },
      "3to7d": {
        medianHours: -0.02,
        q80Hours: 0.1,
        arrivals: 311,
      },
      "7to14d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 302,
      },
      gt14d: {
        medianHours: 0.03,
        q80Hours: 16.67,
        arrivals: 223,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 277,
      },
    },
    ZIMU: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 299,
      },
      "3to7d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 314,
      },
      "7to14d": {
        medianHours: 0,
        q80Hours: 0.1,
        arrivals: 308,
      },
      gt14d: {
        medianHours: 0.02,
        q80Hours: 10,
        arrivals: 237,
      },
      le1d: {
        medianHours: 0.02,
        q80Hours: 0.08,
        arrivals: 274,
      },
    },
  },
};
