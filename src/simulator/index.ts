/** The carrier simulator's public surface: the HTTP server, its CLI and the simulated world. */
export type { SimulatorAuth } from "./auth";
export { runSimulatorCli, SIMULATOR_USAGE, type SimulatorCliOptions } from "./cli";
export type { DcsaEquipmentEvent, DcsaEvent, DcsaShipmentEvent, DcsaTransportEvent } from "./dcsa-types";
export type { Fault, FaultControl, FaultMode } from "./faults";
export {
  API_VERSION,
  createSimulatorHandler,
  type RunningSimulator,
  type SimulatorHandler,
  type SimulatorOptions,
  startSimulator,
} from "./server";
export {
  type EventQuery,
  eventsFor,
  type ReferenceKind,
  type Shipment,
  SimulatedWorld,
  shipmentFor,
  UNKNOWN_SHARE,
} from "./world/world";
