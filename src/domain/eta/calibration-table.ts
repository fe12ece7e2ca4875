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
      n: 29,
      residualQ50Hours: 2.92,
      residualQ80Hours: 10.83,
      withinTarget: false,
    },
    {
      source: "model",
      bucket: "7to14d",
      n: 122,
      residualQ50Hours: 1.88,
      residualQ80Hours: 4.49,
      withinTarget: false,
    },
    {
      source: "model",
      bucket: "gt14d",
      n: 79,
      residualQ50Hours: 2.81,
      residualQ80Hours: 9.36,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "1to3d",
      n: 10,
      residualQ50Hours: -4.8,
      residualQ80Hours: -0.74,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "3to7d",
      n: 54,
      residualQ50Hours: 13.85,
      residualQ80Hours: 20.76,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "7to14d",
      n: 93,
      residualQ50Hours: 20.43,
      residualQ80Hours: 26.35,
      withinTarget: false,
    },
    {
      source: "blend",
      bucket: "gt14d",
      n: 54,
      residualQ50Hours: 36.13,
      residualQ80Hours: 54.95,
      withinTarget: false,
    },
    {
      source: "carrier",
      bucket: "le1d",
      n: 3011,
      residualQ50Hours: 0,
      residualQ80Hours: 0.08,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "1to3d",
      n: 3038,
      residualQ50Hours: -0.01,
      residualQ80Hours: 0.1,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "3to7d",
      n: 2993,
      residualQ50Hours: -0.01,
      residualQ80Hours: 3.02,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "7to14d",
      n: 2725,
      residualQ50Hours: -0.44,
      residualQ80Hours: 5.55,
      withinTarget: true,
    },
    {
      source: "carrier",
      bucket: "gt14d",
      n: 2172,
      residualQ50Hours: -0.49,
      residualQ80Hours: 36.34,
      withinTarget: true,
    },
  ],
  carrierBias: {
    CMDU: {
      "1to3d": {
        medianHours: 0.02,
        q80Hours: 0.12,
        arrivals: 311,
      },
      "3to7d": {
        medianHours: 0.06,
        q80Hours: 4.11,
        arrivals: 311,
      },
      "7to14d": {
        medianHours: 2.2,
        q80Hours: 29.02,
        arrivals: 296,
      },
      gt14d: {
        medianHours: 4.04,
        q80Hours: 43.54,
        arrivals: 221,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.07,
        arrivals: 305,
      },
    },
    COSU: {
      "1to3d": {
        medianHours: 0.01,
        q80Hours: 0.12,
        arrivals: 310,
      },
      "3to7d": {
        medianHours: 0.02,
        q80Hours: 4.54,
        arrivals: 306,
      },
      "7to14d": {
        medianHours: 1.84,
        q80Hours: 32.12,
        arrivals: 297,
      },
      gt14d: {
        medianHours: 3.87,
        q80Hours: 60.57,
        arrivals: 226,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 300,
      },
    },
    EGLV: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.12,
        arrivals: 312,
      },
      "3to7d": {
        medianHours: 0.07,
        q80Hours: 6.34,
        arrivals: 323,
      },
      "7to14d": {
        medianHours: 1.73,
        q80Hours: 24.12,
        arrivals: 286,
      },
      gt14d: {
        medianHours: 6.09,
        q80Hours: 62.08,
        arrivals: 224,
      },
      le1d: {
        medianHours: -0.01,
        q80Hours: 0.09,
        arrivals: 306,
      },
    },
    HDMU: {
      "1to3d": {
        medianHours: 0.01,
        q80Hours: 0.11,
        arrivals: 302,
      },
      "3to7d": {
        medianHours: 0.05,
        q80Hours: 3.71,
        arrivals: 314,
      },
      "7to14d": {
        medianHours: 1.12,
        q80Hours: 37.96,
        arrivals: 283,
      },
      gt14d: {
        medianHours: 4.97,
        q80Hours: 77.58,
        arrivals: 219,
      },
      le1d: {
        medianHours: -0.01,
        q80Hours: 0.07,
        arrivals: 293,
      },
    },
    HLCU: {
      "1to3d": {
        medianHours: 0.02,
        q80Hours: 0.18,
        arrivals: 297,
      },
      "3to7d": {
        medianHours: 0.07,
        q80Hours: 4.08,
        arrivals: 308,
      },
      "7to14d": {
        medianHours: 1.65,
        q80Hours: 5.3,
        arrivals: 292,
      },
      gt14d: {
        medianHours: 3.37,
        q80Hours: 8.29,
        arrivals: 226,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 301,
      },
    },
    MAEU: {
      "1to3d": {
        medianHours: 0.02,
        q80Hours: 0.39,
        arrivals: 304,
      },
      "3to7d": {
        medianHours: 0.06,
        q80Hours: 3.17,
        arrivals: 307,
      },
      "7to14d": {
        medianHours: 1.25,
        q80Hours: 5.19,
        arrivals: 295,
      },
      gt14d: {
        medianHours: 2.2,
        q80Hours: 7.83,
        arrivals: 231,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 304,
      },
    },
    MSCU: {
      "1to3d": {
        medianHours: 0,
        q80Hours: 0.11,
        arrivals: 298,
      },
      "3to7d": {
        medianHours: 0.05,
        q80Hours: 3.91,
        arrivals: 306,
      },
      "7to14d": {
        medianHours: 1.05,
        q80Hours: 7.93,
        arrivals: 296,
      },
      gt14d: {
        medianHours: 2.93,
        q80Hours: 8.98,
        arrivals: 228,
      },
      le1d: {
        medianHours: -0.01,
        q80Hours: 0.08,
        arrivals: 297,
      },
    },
    ONEY: {
      "1to3d": {
        medianHours: 0.03,
        q80Hours: 0.11,
        arrivals: 309,
      },
      "3to7d": {
        medianHours: 0.06,
        q80Hours: 4.65,
        arrivals: 318,
      },
      "7to14d": {
        medianHours: 2.75,
        q80Hours: 40.11,
        arrivals: 296,
      },
      gt14d: {
        medianHours: 6.99,
        q80Hours: 72.77,
        arrivals: 216,
      },
      le1d: {
        medianHours: 0.01,
        q80Hours: 0.08,
        arrivals: 301,
      },
    },
    YMLU: {
      "1to3d": {
        medianHours: 0.01,
        q80Hours: 0.11,
        arrivals: 315,
      },
      "3to7d": {
        medianHours: 0.05,
        q80Hours: 4.77,
        arrivals: 318,
      },
      "7to14d": {
        medianHours: 1.8,
        q80Hours: 31.48,
        arrivals: 289,
      },
      gt14d: {
        medianHours: 6.23,
        q80Hours: 61.28,
        arrivals: 216,
      },
      le1d: {
        medianHours: 0,
        q80Hours: 0.08,
        arrivals: 302,
      },
    },
    ZIMU: {
      "1to3d": {
        medianHours: 0.01,
        q80Hours: 0.11,
        arrivals: 306,
      },
      "3to7d": {
        medianHours: 0.03,
        q80Hours: 3.34,
        arrivals: 325,
      },
      "7to14d": {
        medianHours: 1.01,
        q80Hours: 25.1,
        arrivals: 297,
      },
      gt14d: {
        medianHours: 4.93,
        q80Hours: 59.06,
        arrivals: 235,
      },
      le1d: {
        medianHours: -0.01,
        q80Hours: 0.08,
        arrivals: 302,
      },
    },
  },
};
