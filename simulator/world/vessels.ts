/**
 * The world's ships are the vessel register the service also reads (reference-data/vessels.ts): one
 * list of names, IMO numbers and sourced MMSIs for both programs.
 */
export { VESSELS, type Vessel } from "../../reference-data/vessels";
