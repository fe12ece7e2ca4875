// container-validator 1.1.0 ships without types; only what the tests use is declared.
declare module "container-validator" {
  export default class ContainerValidator {
    isValid(containerNumber: string): boolean;
  }
}
